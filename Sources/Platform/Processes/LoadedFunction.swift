import Glibc

/// A C function of the libraries loaded in this process, looked up by name:
/// for glibc's functions that Swift cannot import (`prctl` is variadic,
/// <malloc.h> is not imported).
package enum LoadedFunction {
  /// The function `name` as `type` (a `@convention(c)` function type that
  /// matches its C declaration), or nil when no loaded library has it.
  package static func named<Function>(_ name: String, as type: Function.Type) -> Function? {
    guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, name) else { return nil }
    return unsafeBitCast(symbol, to: type)
  }
}
