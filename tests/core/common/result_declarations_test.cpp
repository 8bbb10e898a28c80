// One description per result (gpprobe/common/fields.h): the member count that makes a description
// complete, the JavaScript names, the TypeScript and Python a description prints (hand-written below), and
// wasm/gpprobe.d.mts and python/gpprobe/_gpprobe.pyi holding exactly what the descriptions of the results
// print (a stale file fails here).
#include <array>
#include <cstdint>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpprobe/common/fields.h"

#include "wasm/declarations/py_declarations.h"
#include "wasm/declarations/results.h"
#include "wasm/declarations/ts_declarations.h"

namespace gpprobe {
namespace {

enum class Shade { light, dark };
inline constexpr EnumNames<Shade, 2> kShadeNames = {{{Shade::light, "light"}, {Shade::dark, "dark"}}};

struct Inner {
  std::string label;
  std::vector<double> values;
};

struct Outer {
  std::size_t row_count = 0;
  bool held_out = false;
  Shade shade = Shade::light;
  Inner inner;
  std::vector<Inner> inners;
  std::vector<std::string> names;
  std::vector<long long> numbers;
  double hidden = 0;
};

inline double twice_hidden(const Outer& o) { return 2 * o.hidden; }

// No default constructor (as a Kernel): every Settled{...} shorter than its members fails to compile.
struct NoDefault {
  explicit NoDefault(int) {}
};

// A member without a default, a short list shown as a plain list, and bytes.
struct Settled {
  std::string name;
  NoDefault held;
  std::vector<double> levels;
  std::vector<std::uint8_t> flags;
};

// Lists every member but `numbers`: not complete.
struct Partial {
  int a = 0, b = 0, c = 0;
};

}  // namespace

GPPROBE_DESCRIBE(Inner, "InnerValue", GPPROBE_FIELD(label), GPPROBE_FIELD(values));
GPPROBE_DESCRIBE(Outer, "OuterValue", GPPROBE_FIELD(row_count), GPPROBE_FIELD(held_out),
                 GPPROBE_NAMED(shade, kShadeNames), GPPROBE_FIELD(inner), GPPROBE_FIELD(inners), GPPROBE_FIELD(names),
                 GPPROBE_FIELD(numbers), GPPROBE_COVERED(hidden), GPPROBE_COMPUTED("twice_hidden", twice_hidden));

GPPROBE_DESCRIBE(Settled, "SettledValue", GPPROBE_FIELD(name), GPPROBE_COVERED(held), GPPROBE_LIST(levels),
                 GPPROBE_FIELD(flags));

// Written without GPPROBE_DESCRIBE, whose static_assert would stop the build.
template <>
struct Description<Partial> {
  using Described = Partial;
  static constexpr const char* name = "PartialValue";
  static constexpr const char* type = "Partial";
  static constexpr auto fields = std::make_tuple(GPPROBE_FIELD(a), GPPROBE_FIELD(b));
};

// Lists `a` twice: as many entries as members, but not every member.
struct Twice {
  int a = 0, b = 0;
};
template <>
struct Description<Twice> {
  using Described = Twice;
  static constexpr const char* name = "TwiceValue";
  static constexpr const char* type = "Twice";
  static constexpr auto fields = std::make_tuple(GPPROBE_FIELD(a), GPPROBE_FIELD(a));
};

namespace {

TEST(ResultDescriptions, CountTheMembersOfAnAggregate) {
  static_assert(fields::member_count<Inner>() == 2);
  static_assert(fields::member_count<Outer>() == 8);
  static_assert(fields::member_count<Partial>() == 3);
  static_assert(fields::complete<Outer>());
  static_assert(!fields::complete<Partial>(), "a member left out of the description");
  static_assert(!fields::complete<Twice>(), "a member listed twice, another not at all");
  static_assert(fields::complete<ComparisonResult>() && fields::complete<RepresentationProbe>());
  static_assert(fields::complete<RobustnessCertificate>() && fields::complete<ProbeCertificate>());
  // A member with no default does not stop the count (the named kernels' Kernel).
  static_assert(fields::member_count<Settled>() == 4 && fields::complete<Settled>());
  static_assert(fields::member_count<NamedKernel>() == 3);
  static_assert(fields::complete<Vocabulary>() && fields::complete<AnomalyExperiment>());
  EXPECT_EQ(fields::member_count<RepresentationProbe>(), 33u);
}

TEST(ResultDescriptions, NameFieldsInCamelCaseForJavaScript) {
  EXPECT_EQ(fields::camel_case("loo_auroc_standard_error"), "looAurocStandardError");
  EXPECT_EQ(fields::camel_case("p_value"), "pValue");
  EXPECT_EQ(fields::camel_case("width"), "width");
}

TEST(ResultDescriptions, PrintTheTypeScriptOfEachFieldKind) {
  std::ostringstream out;
  std::set<std::string> declared;
  declarations::declare<Outer>(out, declared, true);
  EXPECT_EQ(out.str(),
            "\n/** gpprobe::Inner: its header says what each field means. */\n"
            "export interface InnerValue {\n"
            "  label: string;\n"
            "  values: Float64Array;\n"
            "}\n"
            "\n/** gpprobe::Outer: its header says what each field means. */\n"
            "export interface OuterValue extends BindingStatus {\n"
            "  rowCount: number;\n"
            "  heldOut: boolean;\n"
            "  shade: 'light' | 'dark';\n"
            "  inner: InnerValue;\n"
            "  inners: InnerValue[];\n"
            "  names: string[];\n"
            "  numbers: Float64Array;\n"
            "  twiceHidden: number;\n"
            "}\n");
}

TEST(ResultDescriptions, PrintAListAsAListAndBytesAsBytes) {
  std::ostringstream ts, py;
  std::set<std::string> declared, py_declared;
  declarations::declare<Settled>(ts, declared, false);
  declarations::py::declare<Settled>(py, py_declared);
  EXPECT_EQ(ts.str(),
            "\n/** gpprobe::Settled: its header says what each field means. */\n"
            "export interface SettledValue {\n"
            "  name: string;\n"
            "  levels: number[];\n"
            "  flags: Uint8Array;\n"
            "}\n");
  EXPECT_EQ(py.str(),
            "\nclass Settled(TypedDict):\n"
            "    \"\"\"gpprobe::Settled: its header says what each field means.\"\"\"\n\n"
            "    name: str\n"
            "    levels: List[float]\n"
            "    flags: List[int]\n");
}

TEST(ResultDescriptions, PrintThePythonOfEachFieldKind) {
  std::ostringstream out;
  std::set<std::string> declared;
  declarations::py::declare<Outer>(out, declared);
  EXPECT_EQ(out.str(),
            "\nclass Inner(TypedDict):\n"
            "    \"\"\"gpprobe::Inner: its header says what each field means.\"\"\"\n\n"
            "    label: str\n"
            "    values: npt.NDArray[np.float64]\n"
            "\nclass Outer(TypedDict):\n"
            "    \"\"\"gpprobe::Outer: its header says what each field means.\"\"\"\n\n"
            "    row_count: int\n"
            "    held_out: bool\n"
            "    shade: Literal['light', 'dark']\n"
            "    inner: Inner\n"
            "    inners: List[Inner]\n"
            "    names: List[str]\n"
            "    numbers: List[int]\n"
            "    twice_hidden: float\n");
}

std::string text_of(const std::string& path) {
  std::ifstream in(std::string(GPPROBE_SOURCE_DIR) + "/" + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A declaration file whose generated regions differ from the descriptions (a field added to a struct and its
// description, the file not rewritten) is caught: rewriting it changes it.
TEST(ResultDescriptions, CatchAStaleDeclaration) {
  const std::vector<declarations::Region> regions = {
      {"OuterValue", "\nexport interface OuterValue {\n  a: number;\n}\n", "//"}};
  const std::string current = "head\n" + declarations::begin_marker("OuterValue") + regions[0].text +
                              declarations::end_marker("OuterValue") + "tail\n";
  std::string stale = current;
  const std::string field = "  a: number;\n";
  stale.replace(stale.find(field), field.size(), "");
  std::vector<std::string> missing;
  EXPECT_EQ(declarations::rewritten(current, regions, &missing), current);
  EXPECT_EQ(declarations::rewritten(stale, regions, &missing), current);
  EXPECT_TRUE(missing.empty());
  declarations::rewritten("no markers", regions, &missing);
  EXPECT_EQ(missing, std::vector<std::string>{"OuterValue"});
}

TEST(ResultDescriptions, AreWhatThePythonStubsHold) {
  const std::string text = text_of("python/gpprobe/_gpprobe.pyi");
  ASSERT_FALSE(text.empty());
  std::vector<std::string> missing;
  const std::string rewritten =
      declarations::rewritten(text, declarations::py::regions<declarations::PyResults>(), &missing);
  EXPECT_EQ(missing, std::vector<std::string>());
  EXPECT_TRUE(rewritten == text)
      << "python/gpprobe/_gpprobe.pyi differs from the descriptions: run `./build/native/gpprobe_declarations "
         "--write python/gpprobe/_gpprobe.pyi`";
}

TEST(ResultDescriptions, AreWhatTheModuleDeclarationHolds) {
  std::ifstream in(std::string(GPPROBE_SOURCE_DIR) + "/wasm/gpprobe.d.mts");
  ASSERT_TRUE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::vector<declarations::Region> regions = declarations::regions<declarations::Results>();
  std::vector<std::string> missing;
  const std::string rewritten = declarations::rewritten(text.str(), regions, &missing);
  EXPECT_EQ(missing, std::vector<std::string>());
  EXPECT_TRUE(rewritten == text.str())
      << "wasm/gpprobe.d.mts differs from the descriptions: run `./build/native/gpprobe_declarations --write "
         "wasm/gpprobe.d.mts`";
}

}  // namespace
}  // namespace gpprobe
