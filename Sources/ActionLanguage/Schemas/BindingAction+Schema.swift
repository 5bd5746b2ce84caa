import ComposableCore

extension BindingAction: DescribedValue where Root: BindableState {
  /// A field set by name, the value following: `bmi.input.binding.height 180`.
  public static var valueSchema: ValueSchema { .binding(Self.self) }
}
