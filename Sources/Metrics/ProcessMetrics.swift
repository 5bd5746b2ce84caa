import Platform

extension PrometheusText {
  /// The process's own families, named as every Prometheus client library
  /// names them (`process_cpu_seconds_total`, `process_resident_memory_bytes`,
  /// …), so that dashboards made for any service read them.
  public mutating func process(_ statistics: ProcessStatistics) {
    single(
      "process_cpu_seconds_total", .counter, help: "Total user and system CPU time spent in seconds.",
      statistics.cpuSeconds)
    single(
      "process_resident_memory_bytes", .gauge, help: "Resident memory size in bytes.", statistics.residentBytes)
    single(
      "process_virtual_memory_bytes", .gauge, help: "Virtual memory size in bytes.", statistics.virtualBytes)
    single("process_open_fds", .gauge, help: "Number of open file descriptors.", statistics.openDescriptors)
    single("process_max_fds", .gauge, help: "Maximum number of open file descriptors.", statistics.maxDescriptors)
    single(
      "process_start_time_seconds", .gauge, help: "Start time of the process since unix epoch in seconds.",
      statistics.startTime)
  }
}
