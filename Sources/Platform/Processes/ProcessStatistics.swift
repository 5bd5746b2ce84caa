import Glibc

/// What the kernel says of this process (`/proc/self`), read when asked:
/// CPU time, memory, descriptors and start time, as monitoring reads them
/// of any service.
public struct ProcessStatistics: Sendable, Equatable {
  /// User and system CPU time, in seconds.
  public var cpuSeconds: Double
  /// Resident memory, in bytes.
  public var residentBytes: Int
  /// Virtual memory, in bytes.
  public var virtualBytes: Int
  /// Open file descriptors.
  public var openDescriptors: Int
  /// The soft limit on open file descriptors.
  public var maxDescriptors: Int
  /// When the process started, in seconds since the Unix epoch.
  public var startTime: Double

  /// This process's figures now; nil where `/proc` is not mounted or reads
  /// other than Linux's.
  public static func current() -> ProcessStatistics? {
    guard let stat = readToEnd("/proc/self/stat"),
      let fields = fields(ofStat: stat)
    else { return nil }
    let ticks = Double(max(1, sysconf(Int32(_SC_CLK_TCK))))
    let pageSize = max(1, sysconf(Int32(_SC_PAGESIZE)))
    var limit = rlimit()
    let maxDescriptors = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int(clamping: limit.rlim_cur) : 0
    // The directory's own listing holds one descriptor while it is read.
    let open = ((try? FileIO.list("/proc/self/fd"))?.count ?? 1) - 1
    return ProcessStatistics(
      cpuSeconds: Double(fields.userTicks + fields.systemTicks) / ticks,
      residentBytes: fields.residentPages * pageSize, virtualBytes: fields.virtualBytes,
      openDescriptors: max(0, open), maxDescriptors: maxDescriptors,
      startTime: bootTime() + Double(fields.startTicks) / ticks)
  }

  /// The fields of `/proc/self/stat` this reads, by their numbers in
  /// proc(5): 14 utime, 15 stime, 22 starttime, 23 vsize, 24 rss. The
  /// command's name (field 2) is in parentheses and may hold spaces and
  /// parentheses itself, so fields are counted from the last `)`.
  static func fields(ofStat stat: [UInt8]) -> (
    userTicks: Int, systemTicks: Int, startTicks: Int, virtualBytes: Int, residentPages: Int
  )? {
    guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
    // After the name: field 3 (state) onwards.
    let rest = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
    func field(_ number: Int) -> Int? {
      let index = number - 3
      guard index < rest.count else { return nil }
      return Int(String(decoding: rest[rest.startIndex + index], as: UTF8.self))
    }
    guard let user = field(14), let system = field(15), let start = field(22), let virtual = field(23),
      let resident = field(24)
    else { return nil }
    return (user, system, start, virtual, resident)
  }

  /// The boot time, in seconds since the Unix epoch: the wall clock less
  /// the time since boot (`CLOCK_BOOTTIME`, which a process's start time in
  /// `/proc/self/stat` counts from). Read from the clocks rather than from
  /// `/proc/stat`, which a unit's `ProcSubset=pid` hides.
  private static func bootTime() -> Double {
    var wall = timespec()
    var sinceBoot = timespec()
    clock_gettime(CLOCK_REALTIME, &wall)
    clock_gettime(CLOCK_BOOTTIME, &sinceBoot)
    return Double(wall.tv_sec - sinceBoot.tv_sec) + Double(wall.tv_nsec - sinceBoot.tv_nsec) / 1e9
  }
}

/// The whole of a file whose size the kernel does not know beforehand, as
/// `/proc`'s files (their size is 0): read until the end.
private func readToEnd(_ path: String) -> [UInt8]? {
  let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { return nil }
  defer { Glibc.close(fd) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { continue }
    guard count >= 0 else { return nil }
    if count == 0 { return bytes }
    bytes += chunk[..<count]
  }
}
