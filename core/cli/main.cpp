// gpprobe: the command-line face of the core. `gpprobe <command> [flags]`; `gpprobe help` lists them.
#include <cstddef>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "gpprobe/linalg/parallel_for.h"

#include "commands.h"

namespace {

using CommandFunction = int (*)(const gpprobe::cli::Args&, std::ostream&, std::ostream&);

// The command table: every command once, with its function, its usage block (as `gpprobe help` lists
// them, and `gpprobe <command> --help` prints it) and whether the command answers --help itself (its own
// help says more than the block: each flag, per figure).
struct Command {
  const char* name;
  CommandFunction run;
  const char* text;
  bool own_help = false;
};

const Command kCommands[] = {
    {"probe", gpprobe::cli::probe_command,
     "  probe   --observations FILE --labels FILE --queries FILE [--epsilon E] [--strength S]\n"
     "          [--space automatic|function|weight] [--out FILE]\n"
     "          [--certify-gamma G [--norm inf|2] [--certify-dims i,j,...] [--tolerance E (0.01)]\n"
     "          [--max-iterations N (10000)]]\n"
     "          Gaussian process probe: one CSV row per query with judged_probability, episteme,\n"
     "          alea, latent_mean, latent_variance, knowledge, ood_score. --certify-gamma adds certified\n"
     "          bounds over every query within G of it (L-inf box or L2 ball; on --certify-dims only,\n"
     "          then refined by branch and bound): judged_probability_lower/_lowest_found/\n"
     "          _highest_found/_upper, latent_mean_, latent_variance_, episteme_lower/_upper,\n"
     "          verdict_can_flip (yes/no/unknown), certify_status, certify_iterations.\n"
     "          probe --probe FILE.probe.json --queries FILE [...]: the probe the app exported (its\n"
     "          observations, labels, epsilon, strength and space), fitted again, scores the queries.\n"},
    {"loo", gpprobe::cli::loo_command,
     "  loo     --observations FILE --labels FILE [--epsilon E] [--strength S] [--space ...] [--out FILE]\n"
     "          (or --probe FILE.probe.json) leave-one-out check of the probe in closed form: CSV\n"
     "          observation,label,judged_probability,latent_mean,latent_variance (each observation judged by\n"
     "          the probe fitted on the others); stderr: one JSON line with the LOO auroc and log_loss, their\n"
     "          standard errors (DeLong; sd/sqrt(O)), their 99% intervals (auroc_lower/_upper: Newcombe's\n"
     "          score interval joined with DeLong's, honest at AUROC 1 and few observations;\n"
     "          auroc_delong_lower/_upper: DeLong's alone; log_loss_lower/_upper) and the verdict\n"
     "          separates|chance|too_few. separates: the auroc interval lies above 1/2. chance: DeLong's\n"
     "          interval reaches 1/2 or the log loss's lies above log 2 - these observations do not separate\n"
     "          the concept. too_few: under 2 of a class, or DeLong's interval lies above 1/2 but the honest\n"
     "          one reaches it (e.g. 3 + 5 ranked perfectly: 0.43-1) - add observations.\n"},
    {"bench", gpprobe::cli::bench_command,
     "  bench   [--observations 100,1000,4000] [--dimension 768] [--queries 10000] [--seed N] [--repeats R]\n"
     "          [--json]\n"
     "          time fitting and scoring on seeded synthetic data (native build); with --repeats, the\n"
     "          fastest fit + score of R runs in this process for each O.\n"},
    {"gpr", gpprobe::cli::gpr_command,
     "  gpr     --train FILE --test FILE [--kernel rbf|matern12|matern32|matern52|periodic|locally-periodic|\n"
     "          linear|cosine] [--PARAMETER V ...] [--noise-variance N] [--optimize] [--restarts R]\n"
     "          [--seed S] [--signal-variance-prior P] [--length-scale-prior P] [--rho R] [--theta T]\n"
     "          [--out FILE]\n"
     "          exact GP regression (kernel = constant(value) * base, mean = average of y). Each kernel\n"
     "          parameter is set by its name with '.' and '_' as '-': --constant-value, --rbf-length-scale,\n"
     "          --periodic-length-scale, --periodic-period, --linear-offset, --matern32-length-scale, ...\n"
     "          train = feature columns then y; test = feature columns (and y, optionally). One CSV row per\n"
     "          test point: mean, latent_variance, observation_variance, knowledge (+ status normal/anomaly/\n"
     "          unknown when the test file has y: unknown if knowledge < rho (0.5), anomaly if\n"
     "          |y - mean| > theta (3) sqrt(observation_variance)). Fitted hyperparameters and the log\n"
     "          marginal likelihood go to stderr as one JSON line. The priors (as gpc's, with --optimize)\n"
     "          go on log constant.value and every log length-scale (MAP).\n"},
    {"baseline", gpprobe::cli::baseline_command,
     "  baseline --method lp|svm|lpe|msp|maha|knn --observations FILE --labels FILE --queries FILE\n"
     "          [--k K] [--seed N] [--members M] [--out FILE]\n"
     "          a baseline of the GPP paper: CSV query,score (lp/svm: decision value; msp, maha, knn,\n"
     "          lpe: OOD score, higher = more in-distribution) plus probability (lp, msp, lpe) and\n"
     "          episteme, alea (lpe).\n"},
    {"evaluate", gpprobe::cli::evaluate_command,
     "  evaluate --embeddings FILE --labels FILE [--ood FILE] --experiment probing|fuzzy|ood\n"
     "          [--query-mask FILE] [--trials T] [--seed N] [--max-observations M] [--max-queries Q]\n"
     "          [--members M] [--k K] [--epsilon E] [--strength S] [--gpc [--gpc-max-observations M]]\n"
     "          [--out FILE] [--clouds FILE]\n"
     "          the paper's experiments (GPP vs baselines as observations grow): CSV\n"
     "          method,metric,observations,mean,sd,trials; --clouds writes the fuzzy experiment's\n"
     "          per-query judged_probability, episteme, alea. --query-mask: 0/1 per row, 1 = may be a\n"
     "          query (never an observation). --gpc: probing also ranks by GP classification\n"
     "          (gpc-laplace, gpc-ep: probit, RBF with learned signal variance and length-scale) for\n"
     "          O up to --gpc-max-observations (default 128; its cost grows as O^3).\n"},
    {"draw", gpprobe::cli::draw_command,
     "  draw    --labels FILE --per-class N [--seed S] [--out FILE]\n"
     "          N random rows of each class (the app's observation draw, same rows for the same seed).\n"},
    {"gpc", gpprobe::cli::gpc_command,
     "  gpc     --train FILE --test FILE [--method laplace|ep] [--likelihood probit|logistic]\n"
     "          [--signal-variance S] [--length-scales L1,L2,...]\n"
     "          [--optimize [--restarts R] [--seed N] [--shared-length-scale]] [--out FILE]\n"
     "          binary GP classification, SE-ARD kernel S exp(-sum_j (x_j - x'_j)^2 / (2 Lj^2)) (defaults\n"
     "          laplace, probit, S = 1, L = 1 for every column): train = feature columns then one label\n"
     "          column (0/1 or -1/+1); test = feature columns. CSV point,latent_mean,latent_variance,\n"
     "          probability (p(y = +1)); stderr: one JSON line with the hyperparameters, the log marginal\n"
     "          likelihood and its gradient in [log S, log L1..Ld], iterations and converged.\n"
     "          --shared-length-scale learns one L for every column (isotropic) instead of one each.\n"
     "          --signal-variance-prior P, --length-scale-prior P (with --optimize, also for softmax and\n"
     "          gpr): MAP with a prior on log S / each log L: none, lognormal:MU,SIGMA or\n"
     "          student-t:MU,SIGMA,NU; the JSON line adds the priors and log_prior.\n"
     "  gpc     --likelihood softmax --train FILE --test FILE [--signal-variance S | S0,...,S(C-1)]\n"
     "          [--length-scales L1,...,Ld | --length-scales-per-class \"L...;L...;...\"]\n"
     "          [--optimize [--restarts R] [--seed N]] [--out FILE]\n"
     "          multi-class GP classification (softmax, Laplace, one SE-ARD kernel per class or one for\n"
     "          all): train = feature columns then one label column of class indices 0..C-1 (C = the\n"
     "          largest + 1). CSV point, latent_mean_0..C-1, latent_cov_c_k (c <= k), probability_0..C-1\n"
     "          (exact quadrature for C <= 4; beyond, quasi-Monte Carlo with its error estimate on\n"
     "          stderr); stderr: one JSON line with classes, the hyperparameters, the log marginal\n"
     "          likelihood, its gradient (C arrays [log S_c, log L_c1..L_cd]), iterations, converged.\n"
     "          --optimize ties the hyperparameters when S and L are given once, else learns them per class.\n"},
    {"bench-gpc", gpprobe::cli::gpc_bench_command,
     "  bench-gpc [--n 1000] [--dimensions 2,10] [--test 10000] [--seed N] [--data DIR] [--json]\n"
     "          time GP classification (Laplace probit/logistic, EP) on seeded synthetic data; --data\n"
     "          writes that data as CSV for other implementations (scripts/bench/bench_gpc.mjs).\n"},
    {"robustness", gpprobe::cli::robustness_command,
     "  robustness --train FILE [gpc's model flags] --point x1,...,xd (--gamma G | --sweep G1,G2,...)\n"
     "          [--dims i,j,...] [--valid-range LO,HI] [--tolerance E (0.01)] [--max-iterations N (10000)]\n"
     "          [--time-limit S] [--search both|adversarial] [--out FILE]\n"
     "          certified robustness of the classifier at the point over the L-inf ball of radius G on\n"
     "          --dims (all without it; the rest fixed): one JSON object with probability_at_point, box,\n"
     "          root bounds of mean/variance/probability, minimum and maximum (certified interval,\n"
     "          witness, iterations, status of branch and bound), gpfgs and verdict_can_flip. --sweep:\n"
     "          one such row per gamma (the paper's Fig. 2; only the adversarial side is refined unless\n"
     "          --search both). --time-limit S is the wall time of the whole request after the fit (both\n"
     "          searches, every gamma of a sweep; the adversarial search first): a search reached past it\n"
     "          keeps its root bound (status time_limit, a wider interval that stays sound).\n"
     "  robustness --likelihood softmax --train FILE [multi-class gpc's model flags] --point x1,...,xd\n"
     "          --gamma G [--dims i,j,...] [--valid-range LO,HI] [--class c] [--tolerance E (0.02)]\n"
     "          [--max-iterations N (2000)] [--time-limit S] [--out FILE]\n"
     "          certified bounds of class c's probability over the box (c = the predicted class without\n"
     "          --class): one JSON object with classes, probability_at_point (C values), class, minimum\n"
     "          and maximum (as above) and safety: the predicted class's margin over every other class,\n"
     "          margin_lower/margin_upper, witness, status certified|refuted|unknown. The cost grows\n"
     "          exponentially with C. --time-limit S is the wall time of the whole request after the fit\n"
     "          (the margin's search, then the class's minimum and maximum, one clock), held inside every\n"
     "          box's bound too; a search stopped or never reached says time_limit and keeps a wider\n"
     "          interval that stays sound. A model whose bound terms would pass 1 GiB (70 classes of 2\n"
     "          rows) is refused.\n"},
    {"bench-robustness", gpprobe::cli::robustness_bench_command,
     "  bench-robustness [--n 1000] [--seed 1] [--gammas 0,0.1,...,1.4] [--tolerance 0.02] [--data DIR]\n"
     "          [--json]\n"
     "          time the robustness sweep of the paper's Synthetic2D experiment (native build).\n"},
    {"explain", gpprobe::cli::explain_command,
     "  explain (--train FILE [gpc's model flags] --point x1,...,xd | --probe FILE.probe.json --query ROW_FILE)\n"
     "          --gamma G [--dims i,j,...] [--valid-range LO,HI] [--baseline mean|zero] [--lime-samples N]\n"
     "          [--seed S] [--tolerance E (0.001)] [--include-constant] [--nearly-constant-share S (0.02)]\n"
     "          [--out FILE]\n"
     "          why did it decide that: per feature the certified sensitivity Delta_gamma of p(y = +1) (with\n"
     "          --likelihood softmax [--class c]: class c's probability; or the probe's judged probability) at\n"
     "          the point as an interval, beside LIME's coefficient. CSV\n"
     "          feature,delta_lower,delta,delta_upper,lime,rank,constant_in_training,\n"
     "          nearly_constant_in_training,varying_rows: features constant in training, or off their most\n"
     "          common value in fewer than max(2, S x n) rows, are marked and not ranked (moving them moves\n"
     "          the point away from (nearly) all the data: distance from the data, not evidence) unless\n"
     "          --include-constant.\n",
     true},
    {"paper-robustness", gpprobe::cli::paper_robustness_command,
     "  paper-robustness --figure 3|4|5|6|7 --data FILE [--train-rows N] [--test-points M] [...]\n"
     "          the robustness paper's experiments (safety vs GPFGS, delta-robustness vs training\n"
     "          budget, multi-class local heat maps vs LIME, global sensitivity vs LIME, branch-and-bound\n"
     "          run time) as CSV on\n"
     "          web/public/demo/robustness/*.csv.\n",
     true},
    {"compare", gpprobe::cli::compare_command,
     "  compare --embeddings A.npy B.npy ... (or --config projector_config.json) --labels FILE\n"
     "          [--observations ROWS | --per-class N [--seed S]] [--concepts SPEC ...] [--ood A.npy ...]\n"
     "          [--epsilon E] [--strength S] [--out FILE]\n"
     "          which representation holds the concept: the same concept and observation rows probed in\n"
     "          every embedding of the same rows; CSV embedding,width,loo_auroc,loo_auroc_lower,\n"
     "          loo_auroc_upper,heldout_auroc,mean_episteme,mean_alea,... (DeLong's paired tests against the\n"
     "          best; a sentence per concept on stderr).\n",
     true},
};

const char* kUsageHead =
    "usage: gpprobe <command> [flags]\n"
    "\n";

const char* kUsageFoot =
    "Every command takes --threads N: threads for scoring queries, for the steps of evaluate and for the\n"
    "searches of explain and paper-robustness (default: every core, at most 16), and --help. Flags\n"
    "that set an amount of work are capped:\n"
    "--restarts 1000, --max-iterations 1000000, --trials 1000, --members 10000, --time-limit 86400,\n"
    "--sweep/--gammas 1000 values; the benchmarks' --n 20000, --test/--queries 10000000,\n"
    "--observations 100000, --dimension 100000, --dimensions 10000.\n"
    "\n"
    "Matrices: .npy (float32/float64, C order, 2-D) or .csv/.tsv/.txt (numeric, optional header).\n"
    "Labels: .npy (bool/int/float 0/1, 1-D) or text with one 0/1 per line.\n";

std::string usage() {
  std::string text = kUsageHead;
  text += "commands:\n";
  for (const Command& c : kCommands) text += c.text;
  return text + "\n" + kUsageFoot;
}

// `gpprobe <command> --help`: the command's block, then what every command shares.
std::string command_usage(const std::string& command) {
  for (const Command& c : kCommands) {
    if (command != c.name) continue;
    std::string block = c.text;
    block.erase(0, block.find_first_not_of(' ') + command.size());  // "  gpc     --train ..." -> "--train ..."
    block.erase(0, block.find_first_not_of(' '));
    return "usage: gpprobe " + command + " " + block + "\n" + kUsageFoot;
  }
  return usage();
}

// Removes `--threads N` from the command's flags and sets the thread count; false when N is not a
// positive integer.
bool take_threads_flag(gpprobe::cli::Args* args) {
  for (std::size_t i = 0; i < args->size(); ++i) {
    if ((*args)[i] != "--threads") continue;
    const std::string value = i + 1 < args->size() ? (*args)[i + 1] : "";
    if (value.empty() || value.size() > 3 || value.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(value) == 0) {
      return false;
    }
    gpprobe::set_thread_count(std::size_t(std::stoi(value)));
    args->erase(args->begin() + std::ptrdiff_t(i), args->begin() + std::ptrdiff_t(i) + 2);
    return true;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  using gpprobe::cli::Args;
  if (argc < 2 || std::string(argv[1]) == "help" || std::string(argv[1]) == "--help") {
    (argc < 2 ? std::cerr : std::cout) << usage();
    return argc < 2 ? 2 : 0;
  }
  const Command* command = nullptr;
  for (const Command& c : kCommands) {
    if (argv[1] == std::string(c.name)) command = &c;
  }
  if (command == nullptr) {
    std::cerr << "gpprobe: unknown command '" << argv[1] << "' (try: gpprobe help)\n";
    return 2;
  }
  Args args(argv + 2, argv + argc);
  // Every command answers --help (or -h) with its usage, whatever else was given.
  for (const std::string& a : args) {
    if ((a == "--help" || a == "-h") && !command->own_help) {
      std::cout << command_usage(argv[1]);
      return 0;
    }
  }
  if (!take_threads_flag(&args)) {
    std::cerr << "gpprobe " << argv[1] << ": --threads expects a positive integer\n";
    return 2;
  }
  // The core reports errors as values; this is the last line of defence (memory exhaustion).
  try {
    return command->run(args, std::cout, std::cerr);
  } catch (const std::bad_alloc&) {
    std::cerr << "gpprobe " << argv[1] << ": out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "gpprobe " << argv[1] << ": " << e.what() << '\n';
  }
  return 1;
}
