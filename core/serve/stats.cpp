// Percentiles and adaptive bins (stats.h).
#include "serve/stats.h"

#include <algorithm>
#include <cmath>

namespace trnsim::serve {

double percentile_sorted(const std::vector<double>& s, double p) {
  if (s.empty()) return 0;
  const double pos = p / 100 * double(s.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, s.size() - 1);
  return s[lo] + (pos - double(lo)) * (s[hi] - s[lo]);
}

Summary summarize(std::vector<double>& v) {
  Summary s;
  s.n = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / double(v.size());
  s.p50 = percentile_sorted(v, 50);
  s.p90 = percentile_sorted(v, 90);
  s.p99 = percentile_sorted(v, 99);
  s.max = v.back();
  return s;
}

namespace {

// The value at rank k (0-based) of the expanded weighted list.
double at_rank(const std::vector<std::pair<double, std::uint32_t>>& v, const std::vector<double>& cum, double k) {
  const auto it = std::upper_bound(cum.begin(), cum.end(), k);
  return v[static_cast<std::size_t>(it - cum.begin())].first;
}

double weighted_percentile(const std::vector<std::pair<double, std::uint32_t>>& v, const std::vector<double>& cum,
                           double p) {
  const double n = cum.back();
  const double pos = p / 100 * (n - 1);
  const double lo = std::floor(pos);
  const double a = at_rank(v, cum, lo), b = at_rank(v, cum, std::min(lo + 1, n - 1));
  return a + (pos - lo) * (b - a);
}

}  // namespace

Summary summarize_weighted(std::vector<std::pair<double, std::uint32_t>>& v) {
  Summary s;
  std::sort(v.begin(), v.end());
  std::vector<double> cum;
  cum.reserve(v.size());
  double n = 0, sum = 0;
  for (const auto& [x, w] : v) {
    n += w;
    sum += x * w;
    cum.push_back(n);
  }
  s.n = static_cast<std::size_t>(n);
  if (n == 0) return s;
  s.mean = sum / n;
  s.p50 = weighted_percentile(v, cum, 50);
  s.p90 = weighted_percentile(v, cum, 90);
  s.p99 = weighted_percentile(v, cum, 99);
  s.max = v.back().first;
  return s;
}

Histogram log_histogram(const std::vector<double>& sorted, int bins) {
  Histogram h;
  std::vector<double> v;
  for (double x : sorted)
    if (x > 0) v.push_back(x);
  if (v.empty() || bins <= 0) return h;
  const double lo = v.front(), hi = v.back();
  // The bin ratio r = (hi / lo)^(1 / bins) by bisection on r^bins (no pow: the same in every build).
  double r = 1;
  if (hi > lo) {
    double a = 1, b = hi / lo;
    for (int it = 0; it < 200; ++it) {
      const double m = (a + b) / 2;
      double p = 1;
      for (int i = 0; i < bins; ++i) p *= m;
      (p < hi / lo ? a : b) = m;
    }
    r = (a + b) / 2;
  }
  h.edges.push_back(lo);
  for (int i = 1; i < bins; ++i) h.edges.push_back(h.edges.back() * r);
  h.edges.push_back(hi);
  h.counts.assign(static_cast<std::size_t>(bins), 0);
  std::size_t b = 0;
  for (double x : v) {
    while (b + 1 < h.counts.size() && x >= h.edges[b + 1]) ++b;
    ++h.counts[b];
  }
  return h;
}

AdaptiveBins::AdaptiveBins(std::size_t bins, double initial_width, std::size_t columns)
    : bins_(bins),
      columns_(columns),
      width_(initial_width),
      inv_width_(1 / initial_width),
      limit_(initial_width * double(bins)),
      sums_(bins * columns, 0.0) {}

void AdaptiveBins::grow_to(double x) {
  while (x >= width_ * double(bins_)) {
    for (std::size_t c = 0; c < columns_; ++c) {
      double* col = &sums_[c * bins_];
      for (std::size_t b = 0; b < bins_; ++b) col[b] = b * 2 < bins_ ? col[2 * b] + col[2 * b + 1] : 0;
    }
    width_ *= 2;
    used_ = (used_ + 1) / 2;
  }
  inv_width_ = 1 / width_;
  limit_ = width_ * double(bins_);
}

void AdaptiveBins::add_interval(double a, double b, const double* values) {
  if (!(b > a)) return;
  grow_to(b);
  std::size_t i = static_cast<std::size_t>(a / width_);
  while (i < bins_) {
    const double lo = std::max(a, double(i) * width_), hi = std::min(b, double(i + 1) * width_);
    if (hi > lo)
      for (std::size_t c = 0; c < columns_; ++c) sums_[c * bins_ + i] += values[c] * (hi - lo);
    used_ = std::max(used_, i + 1);
    if (double(i + 1) * width_ >= b) break;
    ++i;
  }
}

}  // namespace trnsim::serve
