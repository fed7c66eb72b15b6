// `trnsim kernel`: the engine-level timing of one kernel on one NeuronCore (core/engine).
#include <ostream>

#include "cli.h"
#include "engine/engine.h"
#include "hw/system.h"

namespace {

using trnsim::InputError;

long parse_long(const std::string& text, const std::string& field) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    throw InputError(field, "expected a positive whole number, got '" + text + "'");
  long v = std::stol(text);
  if (v < 1) throw InputError(field, "must be at least 1");
  return v;
}

int run_kernel(const std::vector<std::string>& raw, trnsim::cli::Io& io) {
  trnsim::cli::Args args(raw,
                         {"chip", "op", "dtype", "m", "n", "k", "tile-m", "tile-n", "tile-k", "seq-q", "seq-kv", "head-dim",
                          "value-dim", "heads", "kv-heads", "tile-kv"},
                         {"json", "no-causal", "prequantized"});
  args.expect_positional({});
  auto chip_name = args.value("chip");
  if (!chip_name) throw InputError("--chip", "missing (required): trainium2, trainium3, a system name or a chip file");
  trnsim::hw::Chip chip = trnsim::hw::load_chip(*chip_name);
  std::string op = args.value_or("op", "gemm");
  auto num = [&](const char* name, long def) {
    auto v = args.value(name);
    return v ? parse_long(*v, std::string("--") + name) : def;
  };
  trnsim::engine::KernelReport r;
  if (op == "gemm") {
    for (const char* o : {"seq-q", "seq-kv", "head-dim", "value-dim", "heads", "kv-heads", "tile-kv"})
      if (args.value(o)) throw InputError(std::string("--") + o, "applies to --op attention only");
    if (args.flag("no-causal")) throw InputError("--no-causal", "applies to --op attention only");
    trnsim::engine::GemmShape g;
    g.m = num("m", 4096);
    g.n = num("n", 4096);
    g.k = num("k", 4096);
    g.dtype = args.value_or("dtype", "bf16");
    g.tile_m = num("tile-m", 0);
    g.tile_n = num("tile-n", 0);
    g.tile_k = num("tile-k", 0);
    g.quantize_a = !args.flag("prequantized");
    r = trnsim::engine::gemm(chip, g);
  } else if (op == "attention") {
    for (const char* o : {"m", "n", "k", "tile-m", "tile-n", "tile-k"})
      if (args.value(o)) throw InputError(std::string("--") + o, "applies to --op gemm only");
    trnsim::engine::AttentionShape a;
    a.seq_q = num("seq-q", 2048);
    a.seq_kv = num("seq-kv", a.seq_q);
    a.head_dim = num("head-dim", 128);
    a.value_dim = num("value-dim", 0);
    a.heads = num("heads", 1);
    a.kv_heads = num("kv-heads", 0);
    a.tile_kv = num("tile-kv", 512);
    a.causal = !args.flag("no-causal");
    a.dtype = args.value_or("dtype", "bf16");
    r = trnsim::engine::attention(chip, a);
  } else {
    throw InputError("--op", "unknown kernel '" + op + "'; one of: gemm, attention");
  }
  if (args.flag("json"))
    io.out << trnsim::engine::report_json(r).dump(2) << "\n";
  else
    io.out << trnsim::engine::report_text(r);
  return 0;
}

}  // namespace

TRNSIM_COMMAND("kernel", "engine-level timing of a GEMM or attention block on one NeuronCore",
               "Usage: trnsim kernel --chip C [--op gemm|attention] [shape options] [--dtype D] [--json]\n"
               "  --chip       trainium2, trainium3 (or a system name / chip file: its chip is used)\n"
               "  --op gemm    --m M --n N --k K (default 4096 each); --dtype fp32|bf16|fp8|mxfp8|mxfp4\n"
               "               (MX on Trainium3 only); --tile-m/--tile-n/--tile-k override the tiling;\n"
               "               --prequantized: MX inputs already quantised in HBM (default: A is BF16 and\n"
               "               quantised on the vector engine)\n"
               "  --op attention  --seq-q S --seq-kv S --head-dim D --value-dim V --heads H --tile-kv T\n"
               "               (default 2048/2048/128/D/1/512; D above 128 contracts in passes of 128;\n"
               "               MLA: --head-dim 192 --value-dim 128 prefill, 576 / 512 absorbed decode),\n"
               "               causal unless --no-causal; --dtype bf16|fp8; --kv-heads K: the K/V heads\n"
               "               (GQA; default H): with --no-causal each one's H/K query heads share its tiles\n"
               "Prints per-engine busy time, the bottleneck, and the roofline of one core for comparison.\n"
               "Exit codes: 0 ok, 2 bad input (a tile that does not fit SBUF/PSUM, unsupported dtype).\n",
               run_kernel);
