// Statistics of a serving run: percentiles (numpy's default "linear" definition, as vLLM's
// benchmark computes them), percentiles of weighted values (many tokens sharing one gap), and
// compact series over a range that is not known in advance (time, position in a response):
// a fixed number of bins whose width doubles, merging pairs, whenever a value falls past the
// last bin.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace trnsim::serve {

struct Summary {
  std::size_t n = 0;
  double mean = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
};
// Sorts `v` in place.
Summary summarize(std::vector<double>& v);
// Values with integer weights (the value repeated weight times); sorts `v`.
Summary summarize_weighted(std::vector<std::pair<double, std::uint32_t>>& v);
// numpy.percentile(v, p) of sorted values.
double percentile_sorted(const std::vector<double>& sorted, double p);

// A histogram on log-spaced bins between the smallest and largest positive value (a
// latency's distribution: decades apart in a loaded run). Edges has bins + 1 entries.
struct Histogram {
  std::vector<double> edges;
  std::vector<std::uint64_t> counts;
};
// `sorted` ascending; edges are the geometric steps min * (max / min)^(i / bins), computed
// with + - * / only so that every build gives the same edges.
Histogram log_histogram(const std::vector<double>& sorted, int bins);

// Sums over equal-width bins starting at 0; `columns` sums per bin.
class AdaptiveBins {
 public:
  AdaptiveBins(std::size_t bins, double initial_width, std::size_t columns);
  // Adds `value` x the overlap of [a, b) with each bin, per column (time integrals), or at
  // one point when a == b (counts).
  void add_interval(double a, double b, const double* values);
  void add_point(double x, const double* values) {
    if (x < 0) x = 0;
    if (x >= limit_) grow_to(x);
    std::size_t b = static_cast<std::size_t>(x * inv_width_);
    if (b >= bins_) b = bins_ - 1;
    for (std::size_t c = 0; c < columns_; ++c) sums_[c * bins_ + b] += values[c];
    if (b + 1 > used_) used_ = b + 1;
  }
  double width() const { return width_; }
  std::size_t used_bins() const { return used_; }  // bins up to the last one touched
  double sum(std::size_t bin, std::size_t column) const { return sums_[column * bins_ + bin]; }

 private:
  void grow_to(double x);
  std::size_t bins_, columns_;
  double width_, inv_width_, limit_;
  std::size_t used_ = 0;
  std::vector<double> sums_;  // column-major: consecutive adds to one bin touch separate cache words
};

}  // namespace trnsim::serve
