// The dtype table (common/dtype.h): sizes derived from element bits and block scales, the
// MX entries checked against core/mx's formats, fallbacks that end in BF16, and peak tables
// that list a new kind only where a chip has it.
#include <catch2/catch.hpp>

#include <set>

#include "common/dtype.h"
#include "hw/system.h"
#include "mx/mx.h"
#include "mx/nvfp4.h"
#include "workload/spec.h"

namespace unit_dtype {

using namespace trnsim;

TEST_CASE("bytes per element = element bits / 8 + one scale per block") {
  for (const auto& d : dtype::all()) {
    INFO(d.name);
    const double scales = d.block > 0 ? d.block_scale_bits / 8.0 / d.block : 0.0;
    CHECK(dtype::bytes_per_element(d.name) == d.element_bits / 8.0 + scales);
    CHECK((d.block > 0) == !d.block_scale.empty());
  }
  // OCP MX: 32 elements per 8-bit E8M0 scale; NVFP4: 16 per 8-bit E4M3 scale and a tensor scale.
  const auto& mx8 = dtype::get("mxfp8");
  CHECK(mx8.block == 32);
  CHECK(mx8.block_scale == "e8m0");
  const auto& nv = dtype::get("nvfp4");
  CHECK(nv.block == 16);
  CHECK(nv.block_scale == "e4m3");
  CHECK(nv.tensor_scale == "fp32");
  CHECK(dtype::bytes_per_element("nvfp4") > dtype::bytes_per_element("mxfp4"));  // twice the scales
  CHECK(workload::bytes_per_element("mxfp4") == dtype::bytes_per_element("mxfp4"));
  CHECK_THROWS_WITH(dtype::bytes_per_element("mxfp5", "workload.precision.weights"),
                    Catch::Contains("workload.precision.weights") && Catch::Contains("did you mean"));
}

TEST_CASE("MX kernels exist for the element formats core/mx implements") {
  for (const auto& d : dtype::all()) {
    INFO(d.name);
    if (!d.mx_kernel) continue;
    auto f = mx::parse_format(d.element_format);
    REQUIRE(f.has_value());
    CHECK(mx::format_info(*f).element_bits == d.element_bits);
    if (d.block_scale == "e4m3") {  // NVFP4: core/mx/nvfp4.h, E4M3 scales over 16 E2M1 elements
      CHECK(d.block == mx::kNvBlockSize);
      CHECK(*f == mx::Format::e2m1);
      CHECK_FALSE(dtype::is_mx(d.name));
    } else {
      CHECK(dtype::is_mx(d.name));  // core/mx's MX scales are E8M0 over 32 elements
    }
  }
  CHECK(dtype::find("nvfp4")->mx_kernel);
  CHECK_FALSE(dtype::is_mx("fp8"));
  CHECK_FALSE(dtype::is_mx("nvfp4"));
}

TEST_CASE("every fallback chain names known kinds, never itself, and ends in bf16") {
  for (const auto& d : dtype::all()) {
    INFO(d.name);
    std::set<std::string> seen;
    for (const auto& f : d.fallback) {
      CHECK(dtype::find(f) != nullptr);
      CHECK(f != d.name);
      CHECK(seen.insert(f).second);
    }
    if (d.name != "bf16") {
      REQUIRE_FALSE(d.fallback.empty());
      CHECK(d.fallback.back() == "bf16");
    }
  }
}

TEST_CASE("peak tables list a kind beyond the always-listed ones only where a chip has it") {
  hw::Chip c = hw::load_chip("trainium3");
  std::vector<std::string> listed;
  for (const auto& d : dtype::all())
    if (d.always_listed) listed.push_back(d.name);
  CHECK(hw::peak_table_dtypes({&c}) == listed);
  hw::Chip with = c;
  with.peak_flops["nvfp4"] = 1e15;
  auto both = hw::peak_table_dtypes({&c, &with});
  CHECK(both.size() == listed.size() + 1);
  CHECK(std::find(both.begin(), both.end(), "nvfp4") != both.end());
}

}  // namespace unit_dtype
