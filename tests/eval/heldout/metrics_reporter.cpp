// ctrlsched-truth: class=order_violation fails=exit
// ctrlsched-truth: cause * R1@30 W2@20
// ctrlsched-truth: cause * R1@31 W2@19
// metrics_reporter.cpp - a metrics registry whose constructor starts its reporting thread.
//
// The constructor starts the reporter before it has filled in the report prefix and the
// counter table: the members are assigned in the body, after the thread already runs. A
// reporter that gets to work first publishes a report with no counters, and the service's
// start-up check of the first report fails.
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

class MetricsRegistry {
 public:
  explicit MetricsRegistry(const std::string& service) {
    reporter_ = std::thread([this] { report_once(); });
    prefix_ = service + ".";
    counters_.assign(3, 0);
  }

  void stop() { reporter_.join(); }

  const std::string& last_report() const { return last_report_; }

 private:
  void report_once() {
    std::string report;
    for (size_t i = 0; i < counters_.size(); i++)
      report += prefix_ + "c" + std::to_string(i) + "=" + std::to_string(counters_[i]) + ";";
    last_report_ = report;
  }

  std::thread reporter_;
  std::string prefix_;
  std::vector<long> counters_;
  std::string last_report_;
};

int main() {
  MetricsRegistry registry("checkout");
  registry.stop();
  const std::string& report = registry.last_report();
  std::printf("first report: %s\n", report.c_str());
  if (report.rfind("checkout.c0=0;", 0) != 0) {
    std::fprintf(stderr, "metrics: first report is incomplete\n");
    return 1;
  }
  return 0;
}
