#include "common/input_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <istream>

#include "common/error.h"

namespace trnsim {

std::string byte_size_text(std::size_t bytes) {
  if (bytes >= (std::size_t{1} << 30) && bytes % (std::size_t{1} << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (std::size_t{1} << 10) && bytes % (std::size_t{1} << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

static InputError too_large(const std::string& label, const std::string& size, std::size_t max_bytes) {
  return InputError(label, size + "more than the limit of " + byte_size_text(max_bytes) + " for this input");
}

std::string read_input_stream(std::istream& in, const std::string& label, std::size_t max_bytes) {
  std::string text;
  char buf[1 << 16];
  // The stream may be a pipe: read in chunks and stop as soon as the limit is passed.
  while (in) {
    in.read(buf, sizeof buf);
    std::size_t got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    if (text.size() + got > max_bytes) throw too_large(label, "", max_bytes);
    text.append(buf, got);
  }
  if (in.bad()) throw InputError(label, "cannot read");
  return text;
}

std::string read_input_file(const std::string& path, const std::string& label, std::size_t max_bytes) {
  // The path is named in the message unless the label already is the path.
  const std::string named = label == path ? "" : " '" + path + "'";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    int err = errno;
    throw InputError(label, "cannot open file" + named + " (" + (err == ENOENT ? "no such file" : std::strerror(err)) + ")");
  }
  if (S_ISDIR(st.st_mode)) throw InputError(label, (named.empty() ? "" : named.substr(1) + " ") + "is a directory, not a file");
  if (S_ISREG(st.st_mode) && static_cast<unsigned long long>(st.st_size) > max_bytes)
    throw too_large(label, "file" + named + " has " + std::to_string(static_cast<unsigned long long>(st.st_size)) + " bytes, ",
                    max_bytes);
  std::ifstream f(path, std::ios::binary);
  if (!f) throw InputError(label, "cannot open file" + named);
  try {
    return read_input_stream(f, label, max_bytes);
  } catch (const std::ios_base::failure&) {
    throw InputError(label, "cannot read file" + named);
  }
}

}  // namespace trnsim
