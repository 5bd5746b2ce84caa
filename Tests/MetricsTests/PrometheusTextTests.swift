import Metrics
import Platform
import TestSupport
import Testing

/// The text exposition format, written as Prometheus reads it: checked by
/// hand for the details and by Prometheus' own `promtool check metrics`.
@Suite struct PrometheusTextTests {
  @Test func familiesHaveHelpTypeAndSamples() {
    var text = PrometheusText()
    text.family("jobs_total", .counter, help: "Jobs done.")
    text.sample("jobs_total", [("kind", "fetch")], 3)
    text.sample("jobs_total", [("kind", "timer"), ("state", "late")], 0)
    text.single("temperature_celsius", .gauge, help: "How warm.", -1.5)
    #expect(
      text.text == """
        # HELP jobs_total Jobs done.
        # TYPE jobs_total counter
        jobs_total{kind="fetch"} 3
        jobs_total{kind="timer",state="late"} 0
        # HELP temperature_celsius How warm.
        # TYPE temperature_celsius gauge
        temperature_celsius -1.5

        """)
  }

  @Test func labelValuesAndHelpAreEscaped() {
    var text = PrometheusText()
    text.family("odd", .gauge, help: "A back\\slash\nand a line")
    text.sample("odd", [("value", "say \"hi\"\\\nbye")], 1)
    #expect(
      text.text == """
        # HELP odd A back\\\\slash\\nand a line
        # TYPE odd gauge
        odd{value="say \\"hi\\"\\\\\\nbye"} 1

        """)
  }

  @Test func numbersAreWrittenAsTheFormatReadsThem() {
    var text = PrometheusText()
    text.family("n", .gauge, help: "Numbers.")
    for value in [0, 42, 1e20, 0.25, .infinity, -.infinity, .nan] as [Double] { text.sample("n", [], value) }
    let values = text.text.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ")[1] }
    #expect(values == ["0", "42", "1e+20", "0.25", "+Inf", "-Inf", "NaN"])
  }

  @Test func aHistogramIsCumulativeWithSumAndCount() {
    var histogram = Histogram(bounds: [0.1, 1, 10])
    for value in [0.05, 0.1, 0.5, 2, 20, 30] { histogram.observe(value) }
    #expect(histogram.counts == [2, 1, 1])
    #expect(histogram.overflow == 2)
    #expect(histogram.count == 6)
    #expect(histogram.sum == 52.65)
    var text = PrometheusText()
    text.histogram("wait_seconds", help: "Waits.", histogram)
    #expect(
      text.text == """
        # HELP wait_seconds Waits.
        # TYPE wait_seconds histogram
        wait_seconds_bucket{le="0.1"} 2
        wait_seconds_bucket{le="1"} 3
        wait_seconds_bucket{le="10"} 4
        wait_seconds_bucket{le="+Inf"} 6
        wait_seconds_sum 52.65
        wait_seconds_count 6

        """)
  }

  @Test func theStandardBucketsAscendAndCoverTheirRange() {
    var seconds = Histogram.seconds
    seconds.observe(0.000_01)
    seconds.observe(9)
    #expect(seconds.counts.first == 1)
    #expect(seconds.overflow == 0)
    var sizes = Histogram.sizes
    sizes.observe(1)
    sizes.observe(3)
    sizes.observe(4096)
    #expect(sizes.counts[0] == 1)
    #expect(sizes.counts[2] == 1)
    #expect(sizes.counts.last == 1)
  }

  /// Prometheus' own linter accepts what the format writes: every kind of
  /// family, escaped values, and the process's own figures.
  @Test func promtoolAcceptsTheExposition() throws {
    var text = PrometheusText()
    text.family("requests_total", .counter, help: "Requests \"served\", by path\\kind.")
    text.sample("requests_total", [("path", "a\"b\\c\nd")], 7)
    text.single("queue_depth", .gauge, help: "Requests waiting.", 2)
    var histogram = Histogram.seconds
    histogram.observe(0.003)
    text.histogram("request_seconds", help: "How long each request took.", histogram)
    var labelled = Histogram.sizes
    labelled.observe(5)
    text.family("batch_items", .histogram, help: "Items per batch.")
    text.histogram("batch_items", [("queue", "main")], labelled)
    if let statistics = ProcessStatistics.current() { text.process(statistics) }
    let result = try Promtool.checkMetrics(text.text)
    #expect(result.status == 0, "promtool: \(result.output)")
  }
}
