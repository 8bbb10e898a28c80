#include "gpprobe/kernels/kernel.h"

#include <cmath>
#include <sstream>

#include "gpprobe/kernels/cosine_kernel.h"

#include "common/numeric_constants.h"
#include "kernels/scaled_distance.h"

namespace gpprobe {

struct Kernel::Node {
  KernelKind kind;
  std::vector<KernelParameter> parameters;  // leaves only
  std::shared_ptr<const Node> left, right;  // sum and product only
  std::size_t count = 0;                    // parameters in this subtree
};

namespace {

using Node = Kernel::Node;
const double kSqrt3 = std::sqrt(3.0);
const double kSqrt5 = std::sqrt(5.0);

std::shared_ptr<const Node> leaf(KernelKind kind, std::vector<KernelParameter> parameters) {
  auto node = std::make_shared<Node>();
  node->kind = kind;
  node->count = parameters.size();
  node->parameters = std::move(parameters);
  return node;
}

std::vector<KernelParameter> length_scales(const char* kernel, const std::vector<double>& values) {
  std::vector<KernelParameter> out;
  for (std::size_t j = 0; j < values.size(); ++j) {
    std::string name = std::string(kernel) + ".length_scale";
    if (values.size() > 1) name += "[" + std::to_string(j) + "]";
    out.push_back({name, values[j]});
  }
  return out;
}

// r^2 = sum_j (d_j / l_j)^2 with d = a - b and an isotropic or ARD length-scale (scaled_distance.h).
double scaled_distance2(const std::vector<KernelParameter>& l, const double* a, const double* b, std::size_t d) {
  if (l.size() == 1) return gpprobe::scaled_distance2(a, b, d, IsotropicScale{l[0].value});
  const KernelParameter* p = l.data();
  return gpprobe::scaled_distance2(a, b, d, ard_scale([p](std::size_t j) { return p[j].value; }));
}

// For stationary kernels k(r): dk/dtheta_j = f(r) * (d_j / l_j)^2 summed over the dimensions that
// share the length-scale j (all of them when isotropic), with f = -(dk/dr) / r given by the caller.
void length_scale_gradient(const std::vector<KernelParameter>& l, const double* a, const double* b, std::size_t d,
                           double f, double* grad) {
  if (l.size() == 1) {
    grad[0] = f * scaled_distance2(l, a, b, d);
    return;
  }
  for (std::size_t j = 0; j < d; ++j) {
    const double t = (a[j] - b[j]) / l[j].value;
    grad[j] = f * t * t;
  }
}

double evaluate_leaf(const Node& n, const double* a, const double* b, std::size_t d, double* grad) {
  const std::vector<KernelParameter>& p = n.parameters;
  switch (n.kind) {
    case KernelKind::constant:
      if (grad) grad[0] = p[0].value;
      return p[0].value;
    case KernelKind::rbf: {
      const double k = std::exp(-0.5 * scaled_distance2(p, a, b, d));
      if (grad) length_scale_gradient(p, a, b, d, k, grad);
      return k;
    }
    case KernelKind::matern12: {
      const double r = std::sqrt(scaled_distance2(p, a, b, d));
      const double k = std::exp(-r);
      // -(dk/dr)/r = exp(-r)/r; at r = 0 every (d_j/l_j)^2 is 0 and so is the gradient.
      if (grad) length_scale_gradient(p, a, b, d, r > 0.0 ? k / r : 0.0, grad);
      return k;
    }
    case KernelKind::matern32: {
      const double r = std::sqrt(scaled_distance2(p, a, b, d));
      const double e = std::exp(-kSqrt3 * r);
      if (grad) length_scale_gradient(p, a, b, d, 3.0 * e, grad);
      return (1.0 + kSqrt3 * r) * e;
    }
    case KernelKind::matern52: {
      const double r2 = scaled_distance2(p, a, b, d);
      const double r = std::sqrt(r2);
      const double e = std::exp(-kSqrt5 * r);
      if (grad) length_scale_gradient(p, a, b, d, 5.0 / 3.0 * (1.0 + kSqrt5 * r) * e, grad);
      return (1.0 + kSqrt5 * r + 5.0 / 3.0 * r2) * e;
    }
    case KernelKind::periodic: {
      double dist2 = 0.0;
      for (std::size_t j = 0; j < d; ++j) dist2 += (a[j] - b[j]) * (a[j] - b[j]);
      const double l = p[0].value, period = p[1].value;
      const double arg = kPi * std::sqrt(dist2) / period;
      const double s = std::sin(arg), c = std::cos(arg);
      const double k = std::exp(-2.0 * s * s / (l * l));
      if (grad) {
        grad[0] = k * 4.0 * s * s / (l * l);
        grad[1] = k * 4.0 * arg * s * c / (l * l);
      }
      return k;
    }
    case KernelKind::linear: {
      double dot = 0.0;
      for (std::size_t j = 0; j < d; ++j) dot += a[j] * b[j];
      const double offset2 = p[0].value * p[0].value;
      if (grad) grad[0] = 2.0 * offset2;
      return offset2 + dot;
    }
    case KernelKind::cosine:
      return CosineKernel(1.0)(a, b, d);
    case KernelKind::sum:
    case KernelKind::product:
      break;
  }
  return 0.0;
}

double evaluate_node(const Node& n, const double* a, const double* b, std::size_t d, double* grad) {
  if (n.kind != KernelKind::sum && n.kind != KernelKind::product) return evaluate_leaf(n, a, b, d, grad);
  const std::size_t p1 = n.left->count;
  const double k1 = evaluate_node(*n.left, a, b, d, grad);
  const double k2 = evaluate_node(*n.right, a, b, d, grad ? grad + p1 : nullptr);
  if (n.kind == KernelKind::sum) return k1 + k2;
  if (grad) {  // d(k1 k2) = dk1 k2 + k1 dk2
    for (std::size_t p = 0; p < p1; ++p) grad[p] *= k2;
    for (std::size_t p = p1; p < n.count; ++p) grad[p] *= k1;
  }
  return k1 * k2;
}

void collect(const Node& n, std::vector<KernelParameter>* out) {
  if (n.left) {
    collect(*n.left, out);
    collect(*n.right, out);
  } else {
    out->insert(out->end(), n.parameters.begin(), n.parameters.end());
  }
}

// A copy of the subtree with its parameters replaced from `source` in theta order.
std::shared_ptr<const Node> rebuild(const Node& n, const KernelParameter*& source) {
  auto copy = std::make_shared<Node>(n);
  if (n.left) {
    copy->left = rebuild(*n.left, source);
    copy->right = rebuild(*n.right, source);
  } else {
    for (KernelParameter& p : copy->parameters) p = *source++;
  }
  return copy;
}

std::shared_ptr<const Node> combine(KernelKind kind, const std::shared_ptr<const Node>& a,
                                    const std::shared_ptr<const Node>& b) {
  auto node = std::make_shared<Node>();
  node->kind = kind;
  node->left = a;
  node->right = b;
  node->count = a->count + b->count;
  return node;
}

void describe_node(const Node& n, std::ostream& os) {
  static const char* names[] = {"constant", "rbf", "matern12", "matern32", "matern52", "periodic", "linear", "cosine"};
  if (n.left) {
    const bool sum = n.kind == KernelKind::sum;
    os << (sum ? "(" : "");
    describe_node(*n.left, os);
    os << (sum ? " + " : " * ");
    describe_node(*n.right, os);
    os << (sum ? ")" : "");
    return;
  }
  os << names[int(n.kind)] << "(";
  for (std::size_t i = 0; i < n.parameters.size(); ++i) os << (i ? ", " : "") << n.parameters[i].value;
  os << ")";
}

// An ARD length-scale vector must have one entry per input column.
Status check_ard(const Node& n, std::size_t d) {
  if (n.left) {
    GPPROBE_RETURN_IF_ERROR(check_ard(*n.left, d));
    return check_ard(*n.right, d);
  }
  const std::size_t count = n.parameters.size();
  if (count > 1 && n.kind != KernelKind::periodic && count != d) {
    const std::string& name = n.parameters[0].name;
    return Status(StatusCode::dimension_mismatch, name.substr(0, name.find('[')) + " has " + std::to_string(count) +
                                                      " entries, the inputs have " + count_of(d, "column"));
  }
  return Status::success();
}

}  // namespace

Kernel Kernel::constant(double value) { return Kernel(leaf(KernelKind::constant, {{"constant.value", value}})); }
Kernel Kernel::rbf(std::vector<double> l) { return Kernel(leaf(KernelKind::rbf, length_scales("rbf", l))); }
Kernel Kernel::matern12(std::vector<double> l) {
  return Kernel(leaf(KernelKind::matern12, length_scales("matern12", l)));
}
Kernel Kernel::matern32(std::vector<double> l) {
  return Kernel(leaf(KernelKind::matern32, length_scales("matern32", l)));
}
Kernel Kernel::matern52(std::vector<double> l) {
  return Kernel(leaf(KernelKind::matern52, length_scales("matern52", l)));
}
Kernel Kernel::periodic(double length_scale, double period) {
  return Kernel(leaf(KernelKind::periodic, {{"periodic.length_scale", length_scale}, {"periodic.period", period}}));
}
Kernel Kernel::locally_periodic(double length_scale, double period, double rbf_length_scale) {
  return periodic(length_scale, period) * rbf({rbf_length_scale});
}
Kernel Kernel::linear(double offset) { return Kernel(leaf(KernelKind::linear, {{"linear.offset", offset}})); }
Kernel Kernel::cosine() { return Kernel(leaf(KernelKind::cosine, {})); }
Kernel operator+(const Kernel& k1, const Kernel& k2) { return Kernel(combine(KernelKind::sum, k1.node_, k2.node_)); }
Kernel operator*(const Kernel& k1, const Kernel& k2) {
  return Kernel(combine(KernelKind::product, k1.node_, k2.node_));
}

KernelKind Kernel::kind() const { return node_->kind; }

bool Kernel::scaled_rbf(double* variance, std::vector<double>* length_scales) const {
  const Node& n = *node_;
  if (n.kind != KernelKind::product || n.left->kind != KernelKind::constant || n.right->kind != KernelKind::rbf) {
    return false;
  }
  *variance = n.left->parameters[0].value;
  length_scales->clear();
  for (const KernelParameter& p : n.right->parameters) length_scales->push_back(p.value);
  return true;
}

double Kernel::operator()(const double* a, const double* b, std::size_t d) const {
  return evaluate_node(*node_, a, b, d, nullptr);
}

double Kernel::evaluate(const double* a, const double* b, std::size_t d, double* grad) const {
  return evaluate_node(*node_, a, b, d, grad);
}

std::size_t Kernel::parameter_count() const { return node_->count; }

std::vector<KernelParameter> Kernel::parameters() const {
  std::vector<KernelParameter> out;
  collect(*node_, &out);
  return out;
}

std::vector<double> Kernel::log_parameters() const {
  std::vector<double> theta;
  for (const KernelParameter& p : parameters()) theta.push_back(std::log(p.value));
  return theta;
}

Kernel Kernel::with_log_parameters(const double* theta) const {
  std::vector<double> values(parameter_count());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::exp(theta[i]);
  return with_values(values.data());
}

Kernel Kernel::with_values(const double* values) const {
  std::vector<KernelParameter> ps = parameters();
  for (std::size_t i = 0; i < ps.size(); ++i) ps[i].value = values[i];
  const KernelParameter* source = ps.data();
  return Kernel(rebuild(*node_, source));
}

Kernel Kernel::with_bounds(std::size_t p, double lower, double upper) const {
  std::vector<KernelParameter> ps = parameters();
  if (p < ps.size()) {
    ps[p].lower = lower;
    ps[p].upper = upper;
  }
  const KernelParameter* source = ps.data();
  return Kernel(rebuild(*node_, source));
}

Status Kernel::check(std::size_t d) const {
  GPPROBE_RETURN_IF_ERROR(check_ard(*node_, d));
  for (const KernelParameter& p : parameters()) {
    if (!(std::isfinite(p.value) && p.value > 0.0)) {
      std::ostringstream os;
      os << p.name << " must be a finite number > 0, got " << p.value;
      return Status(StatusCode::invalid_argument, os.str());
    }
    if (!(p.lower > 0.0 && p.lower <= p.upper && std::isfinite(p.upper))) {
      std::ostringstream os;
      os << p.name << " has bounds [" << p.lower << ", " << p.upper << "]; they must satisfy 0 < lower <= upper < inf";
      return Status(StatusCode::invalid_argument, os.str());
    }
  }
  return Status::success();
}

std::string Kernel::describe() const {
  std::ostringstream os;
  os.precision(6);
  describe_node(*node_, os);
  return os.str();
}

}  // namespace gpprobe
