// The bundled classification examples: seeded (same seed, same points), each drawn as its header says
// (class sizes, XOR's rule, the moons' circles, Synthetic2D's standardisation and shift), and an unknown
// name's message.
#include "gpprobe/classification/classification_examples.h"

#include <cmath>

#include <gtest/gtest.h>

#include "result_assertions.h"

namespace gpprobe {
namespace {

ClassificationExample example(const char* name, std::uint64_t seed = 1) {
  return ok_value(classification_example(name, seed));
}

TEST(ClassificationExamples, AreSeededAndListedInMenuOrder) {
  std::vector<std::string> names;
  for (const ExampleEntry& e : classification_examples()) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"two-blobs", "xor", "moons", "synthetic2d"}));
  for (const std::string& name : names) {
    const ClassificationExample a = example(name.c_str(), 3), b = example(name.c_str(), 3),
                                c = example(name.c_str(), 4);
    EXPECT_EQ(a.x, b.x) << name;
    EXPECT_EQ(a.labels, b.labels) << name;
    EXPECT_NE(a.x, c.x) << name;
    EXPECT_EQ(a.x.cols(), 2) << name;
    EXPECT_EQ(a.input_names, (std::vector<std::string>{"x1", "x2"}));
    EXPECT_EQ(std::size_t(a.x.rows()), a.labels.size());
  }
}

TEST(ClassificationExamples, DrawWhatTheirHeaderSays) {
  const ClassificationExample blobs = example("two-blobs");
  ASSERT_EQ(blobs.x.rows(), 100);
  Eigen::Vector2d mean[2] = {Eigen::Vector2d::Zero(), Eigen::Vector2d::Zero()};
  for (Eigen::Index i = 0; i < 100; ++i) {
    EXPECT_EQ(blobs.labels[std::size_t(i)], double(i % 2));
    mean[i % 2] += blobs.x.row(i).transpose() / 50.0;
  }
  // Class means within 4 standard errors (0.8 / sqrt 50 = 0.11) of (-1, -0.5) and (1, 0.5).
  EXPECT_LT((mean[0] - Eigen::Vector2d(-1.0, -0.5)).cwiseAbs().maxCoeff(), 0.45);
  EXPECT_LT((mean[1] - Eigen::Vector2d(1.0, 0.5)).cwiseAbs().maxCoeff(), 0.45);

  const ClassificationExample xor_ = example("xor");
  ASSERT_EQ(xor_.x.rows(), 120);
  for (Eigen::Index i = 0; i < 120; ++i) {
    EXPECT_LE(xor_.x.row(i).cwiseAbs().maxCoeff(), 2.0);
    EXPECT_EQ(xor_.labels[std::size_t(i)], xor_.x(i, 0) * xor_.x(i, 1) > 0 ? 1.0 : 0.0);
  }

  const ClassificationExample moons = example("moons");
  ASSERT_EQ(moons.x.rows(), 150);
  double worst = 0.0;
  for (Eigen::Index i = 0; i < 150; ++i) {
    // Distance from the moon's circle: (0, 0) for class 0, (1, 0.5) for class 1, radius 1; noise sd 0.15.
    const Eigen::Vector2d centre = i % 2 ? Eigen::Vector2d(1.0, 0.5) : Eigen::Vector2d(0.0, 0.0);
    worst = std::max(worst, std::abs((moons.x.row(i).transpose() - centre).norm() - 1.0));
    EXPECT_EQ(moons.labels[std::size_t(i)], double(i % 2));
  }
  EXPECT_LT(worst, 0.7);  // 0.15 noise per coordinate: 4.5 sd

  const ClassificationExample s = example("synthetic2d");
  ASSERT_EQ(s.x.rows(), 300);
  for (Eigen::Index j = 0; j < 2; ++j) {
    const double m = s.x.col(j).mean();
    EXPECT_NEAR(m, 0.0, 1e-12);
    EXPECT_NEAR(std::sqrt((s.x.col(j).array() - m).square().sum() / 299.0), 1.0, 1e-12);
  }
  // Label 1 was shifted by 5 along the first coordinate, label 0 along the second: each class is higher in
  // its own coordinate than in the other (bound: 5 sd of the noise of x1 - x2 below the shift, standardised).
  for (Eigen::Index i = 0; i < 300; ++i) {
    const double own = s.labels[std::size_t(i)] == 1.0 ? s.x(i, 0) - s.x(i, 1) : s.x(i, 1) - s.x(i, 0);
    EXPECT_GT(own, -0.8) << i;
  }
}

TEST(ClassificationExamples, AnUnknownNameIsNamed) {
  EXPECT_EQ(classification_example("spirals", 0).status().message(),
            "example must be two-blobs, xor, moons or synthetic2d, got 'spirals'");
}

}  // namespace
}  // namespace gpprobe
