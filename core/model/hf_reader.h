// Reading one Hugging Face config object with every key accounted for (internal to
// core/model). Unlike common/fields.h's ObjectReader, which refuses unknown keys, a
// Hugging Face config is the publisher's file: a key nobody reads becomes a warning or an
// ignored field (see finish()), never an error, and JSON null means "not set".
//   HfReader r(config, "workload.model");
//   int layers = r.positive("num_hidden_layers");          // required, > 0
//   int window = r.whole("sliding_window", 0);              // optional, >= 0
//   r.finish(m);   // the remaining keys become m.ignored_fields / m.warnings
#pragma once
#include <set>
#include <string>

#include "model/llm.h"

namespace trnsim::model {

class HfReader {
 public:
  // `label` prefixes the key names this reader reports in warnings and ignored fields
  // ("text_config." inside a multimodal wrapper, "" at the top).
  HfReader(const json& object, std::string path, std::string label = "")
      : object_(object), path_(std::move(path)), label_(std::move(label)) {}

  const json& object() const { return object_; }
  const std::string& path() const { return path_; }
  std::string path(const std::string& key) const { return field_path(path_, key); }
  // The key as warnings name it ("text_config.rope_scaling" inside a wrapper).
  std::string label(const std::string& key) const { return label_ + key; }

  // The value if present and not null (the key is marked read either way).
  const json* get(const std::string& key);
  bool has(const std::string& key) const;  // present and not null; does not mark it read
  const json* peek(const std::string& key) const;  // the value, without marking it read

  // Whole numbers in [0, 2^30]; `positive` requires the key and a value > 0.
  int positive(const std::string& key);
  int whole(const std::string& key, int def);
  bool boolean(const std::string& key, bool def);
  std::string string(const std::string& key);  // "" when absent

  void use(const std::string& key) { read_.insert(key); }
  bool was_read(const std::string& key) const { return read_.count(key) > 0; }

  // Every key not read: cost-irrelevant ones go to m.ignored_fields, unmodeled ones to
  // warnings (ignored when unset: null, false, empty), unknown ones to warnings naming them.
  void finish(ModelConfig& m) const;

 private:
  const json& object_;
  std::string path_;
  std::string label_;
  std::set<std::string> read_;
};

// True for null, false, [], {} (a key that is present but switches nothing on).
bool is_empty_value(const json& v);

// A value as JSON text, cut to 40 characters ("..." after), for warnings and errors.
std::string short_dump(const json& v);

}  // namespace trnsim::model
