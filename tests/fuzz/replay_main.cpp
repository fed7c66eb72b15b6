// Replays inputs through one fuzz target without libFuzzer (the native build's
// trnsim_fuzz_<target>): each file named, or each file directly inside a folder named
// (sorted, so runs are repeatable), is passed once to LLVMFuzzerTestOneInput. A finding
// aborts; otherwise prints "replayed N inputs". See tests/fuzz/fuzz.h.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

static bool is_dir(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

static std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name == "." || name == ".." || name[0] == '.') continue;
      std::string p = dir + "/" + name;
      if (!is_dir(p)) out.push_back(p);
    }
    ::closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

int main(int argc, char** argv) {
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (is_dir(a)) {
      auto f = files_in(a);
      inputs.insert(inputs.end(), f.begin(), f.end());
    } else {
      inputs.push_back(a);
    }
  }
  for (const auto& path : inputs) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
      std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
      return 1;
    }
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "replay: %s (%zu bytes)\n", path.c_str(), bytes.size());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("replayed %zu inputs\n", inputs.size());
  return inputs.empty() ? 1 : 0;
}
