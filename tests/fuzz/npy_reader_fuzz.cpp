// .npy files: any bytes through the header parser and the size checks, then on to a matrix and to
// labels as the CLI does. A successful parse must hold exactly the data its shape promises.
#include "fuzz_support.h"
#include "readers/loaded_matrix.h"
#include "readers/npy_reader.h"

using namespace gpprobe;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Result<cli::NpyArray> array = cli::parse_npy(std::vector<unsigned char>(data, data + size), "fuzz.npy");
  if (!array.ok()) return 0;
  const cli::NpyArray& a = array.value();
  std::size_t elements = 1;
  // A parsed shape's product fits the input; it may wrap only past a 0 dimension, and is 0 then anyway.
  for (std::size_t s : a.shape) elements *= s;
  fuzz::require(a.data.size() == elements * a.itemsize, "data size == shape product * itemsize", double(a.data.size()));
  fuzz::require(a.data.size() <= size, "data no larger than the file", double(a.data.size()));
  volatile double sum = 0.0;  // every element readable (ASan watches the reads)
  for (std::size_t k = 0; k < a.size(); ++k) sum = sum + a.value(k);
  Result<cli::LoadedMatrix> m = cli::matrix_from_npy(a, "fuzz.npy");
  if (m.ok()) {
    const MatrixView view = m.value().view();
    fuzz::require(view.rows() * view.cols() == a.size(), "matrix rows * cols == elements", double(view.rows()));
    fuzz::require(view.cols() > 0 || view.rows() == 0, "no rows of 0 columns", double(view.rows()));
    for (std::size_t k = 0; k < a.size(); ++k)
      fuzz::require(std::isfinite(view.at(k / view.cols(), k % view.cols())), "matrix values finite");
  }
  Result<std::vector<std::uint8_t>> labels = cli::labels_from_npy(a, "fuzz.npy");
  if (labels.ok()) {
    fuzz::require(labels.value().size() == a.size(), "one label per element", double(labels.value().size()));
    for (std::uint8_t y : labels.value()) fuzz::require(y <= 1, "labels are 0 or 1", y);
  }
  return 0;
}
