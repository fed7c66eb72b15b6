// The example scenarios bundled with the core: examples/*.json directly under examples/
// (its subfolders hold model configs, sweep grids, Python and Slurm examples). One list,
// generated from examples/ at build time (core/CMakeLists.txt) and embedded: the Python
// module's example_names(), the page's gallery menu and its #example= links read it here,
// and the site's gallery page (web/gallery.cmake) is generated from the same file.
#pragma once
#include <string>
#include <vector>

namespace trnsim {

// The examples' file stems ("default", "gpt-oss-120b-trn3-gen2", ...), in file order.
const std::vector<std::string>& bundled_example_names();
// The embedded key of an example: "examples/<name>.json".
std::string bundled_example_key(const std::string& name);
// examples/<name>.json's text; InputError naming `example` (with the closest name) when
// there is no such example.
const std::string& bundled_example_text(const std::string& name);

}  // namespace trnsim
