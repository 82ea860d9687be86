// The communicators of cusci::distributed (communicator.hpp): one suite of collectives (all-reduce
// sum/max/min over five dtypes, ring exchanges with uneven and empty messages, broadcast from every
// root, all-gather, barriers) run on self_communicator, on local groups of 1, 2, 3, 4 and 40 ranks and,
// when cusci has NCCL, on init_all over device 0 alone and over every visible device; then the error
// cases. Every rank's values are small integers, so every expected result is exact.
//
// doctest's assertions run on the main thread only: the ranks record what they saw and the checks
// come after run_ranks.

#include <doctest/doctest.h>

#include <chrono>
#include <complex>
#include <cstdint>
#include <map>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "cusci/core.hpp"
#include "cusci/distributed/communicator.hpp"

using namespace cusci;
namespace dist = cusci::distributed;
using dist::communicator;
using dist::message;
using dist::reduce_op;
using cplx = std::complex<double>;
using values = std::vector<cplx>;

namespace {

/// What f throws, as "<type>: <message>", or "" when it returns.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const value_error& e) {
    return std::string("value_error: ") + e.what();
  } catch (const type_error& e) {
    return std::string("type_error: ") + e.what();
  } catch (const index_error& e) {
    return std::string("index_error: ") + e.what();
  } catch (const not_implemented_error& e) {
    return std::string("not_implemented_error: ") + e.what();
  } catch (const runtime_error& e) {
    return std::string("runtime_error: ") + e.what();
  } catch (const std::exception& e) {
    return std::string("other: ") + e.what();
  }
  return "";
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

/// A device array of dtype dt (on the current device) from complex values (the real part for real
/// dtypes).
ndarray device_array(const values& v, dtype dt) { return asarray(host_array::from(v).astype(dt)); }
/// A device array's values as complex128 (synchronizes).
values values_of(const ndarray& a) { return to_host(a).astype(dtype::complex128).to_vector<cplx>(); }

constexpr std::int64_t n = 7;
const char* op_name(reduce_op op) { return op == reduce_op::sum ? "sum" : op == reduce_op::max ? "max" : "min"; }

/// Rank r's all-reduce input: (r + 1)(i + 1), negated for odd i; complex: twice its negative as the
/// imaginary part.
values reduce_input(int r, bool complex) {
  values v;
  for (std::int64_t i = 0; i < n; ++i) {
    const double x = (r + 1.0) * static_cast<double>(i + 1) * (i % 2 ? -1 : 1);
    v.emplace_back(x, complex ? -2 * x : 0.0);
  }
  return v;
}

/// The all-reduce of reduce_input over p ranks.
values reduce_expected(int p, reduce_op op, bool complex) {
  values v;
  for (std::int64_t i = 0; i < n; ++i) {
    const double k = static_cast<double>(i + 1), s = i % 2 ? -1 : 1, pp = p;
    const double x = op == reduce_op::sum ? s * k * pp * (pp + 1) / 2
                     : op == reduce_op::max ? (s > 0 ? k * pp : -k)
                                            : (s > 0 ? k : -k * pp);
    v.emplace_back(x, complex ? -2 * x : 0.0);
  }
  return v;
}

/// The value k of message m from rank `from` in the exchange pattern (imaginary part for complex).
cplx message_value(int from, int m, std::int64_t k) {
  const double x = 1000.0 * from + 100.0 * m + static_cast<double>(k);
  return {x, -x};
}

/// The message counts of the pattern: rank r sends messages 0 and 1 to r + 1 (r % 3 elements, which
/// is 0 for some ranks, and r + 2) and message 2 to r - 1 (3 elements), all modulo the group size.
std::int64_t message_count(int from, int m) { return m == 0 ? from % 3 : m == 1 ? from + 2 : 3; }

struct rank_log {
  std::map<std::string, values> got;
  int device = -1;
  bool own_stream = false;
};

/// Every collective on rank c (all ranks of its group run it); records what the rank received, its
/// device and whether its current stream is one of its own.
void collectives(const communicator& c, rank_log& log) {
  const int r = c.rank(), p = c.size();
  log.device = get_device_id();
  log.own_stream = get_current_stream() != nullptr && get_current_stream() != cudaStreamPerThread;
  const cudaStream_t s = get_current_stream();

  // all-reduce: every op and dtype (complex: sum only), the pointer and the ndarray forms, in place
  for (const dtype dt : {dtype::float32, dtype::float64, dtype::int32, dtype::int64, dtype::complex128}) {
    const bool complex = dt == dtype::complex128;
    for (const reduce_op op : {reduce_op::sum, reduce_op::max, reduce_op::min}) {
      if (complex && op != reduce_op::sum) continue;
      const ndarray x = device_array(reduce_input(r, complex), dt);
      ndarray y = empty_like(x);
      c.allreduce(x.data(), y.data(), static_cast<std::size_t>(n), dt, op, s);
      log.got[std::string(dtype_name(dt)) + " " + op_name(op)] = values_of(y);
      log.got[std::string(dtype_name(dt)) + " " + op_name(op) + " ndarray"] = values_of(c.allreduce(x, op));
    }
    ndarray z = device_array(reduce_input(r, complex), dt);
    c.allreduce(z.data(), z.data(), static_cast<std::size_t>(n), dt, reduce_op::sum, s);
    log.got[std::string(dtype_name(dt)) + " sum in place"] = values_of(z);
  }
  {  // a long one (grid-stride loop of the local group's kernel)
    const ndarray x = full({100003}, r + 1, dtype::float32);
    log.got["long sum"] = values_of(c.allreduce(x));
  }

  // exchange: the ring pattern of message_count, on four dtypes (int16: 2-byte elements)
  const int next = (r + 1) % p, prev = (r + p - 1) % p;
  for (const dtype dt : {dtype::float64, dtype::int32, dtype::int16, dtype::complex128}) {
    std::vector<ndarray> out, in;
    std::vector<message> sends, recvs;
    for (int m = 0; m < 3; ++m) {
      values v;
      for (std::int64_t k = 0; k < message_count(r, m); ++k) v.push_back(message_value(r, m, k));
      out.push_back(device_array(v, dt));
      sends.push_back({m < 2 ? next : prev, out.back().data(), static_cast<std::size_t>(v.size())});
    }
    // listed in the order the peers send: messages 0 and 1 of prev, then message 2 of next
    for (const auto& [from, m] : {std::pair{prev, 0}, std::pair{prev, 1}, std::pair{next, 2}}) {
      in.push_back(full({message_count(from, m)}, -1, dt));
      recvs.push_back({from, in.back().data(), static_cast<std::size_t>(message_count(from, m))});
    }
    c.exchange(sends, recvs, dt, s);
    for (int m = 0; m < 3; ++m) log.got[std::string(dtype_name(dt)) + " exchange " + std::to_string(m)] = values_of(in[m]);
  }

  // broadcast from every root
  for (int root = 0; root < p; ++root) {
    values v;
    for (std::int64_t i = 0; i < 5; ++i) v.emplace_back(r == root ? 10.0 * root + static_cast<double>(i) + 0.5 : -1.0, 0);
    ndarray b = device_array(v, dtype::float64);
    c.broadcast(b.data(), 5, dtype::float64, root, s);
    log.got["broadcast " + std::to_string(root)] = values_of(b);
  }

  // all-gather, also in place (send = recv + rank * count)
  {
    values v;
    for (std::int64_t i = 0; i < 3; ++i) v.emplace_back(10.0 * r + static_cast<double>(i), 0);
    const ndarray x = device_array(v, dtype::float32);
    ndarray all = full({3 * p}, -1, dtype::float32);
    c.allgather(x.data(), all.data(), 3, dtype::float32, s);
    log.got["allgather"] = values_of(all);
    ndarray in_place = full({3 * p}, -1, dtype::float32);
    CUSCI_CUDA_TRY(cudaMemcpyAsync(in_place.data_as<float>() + 3 * r, x.data(), 3 * sizeof(float),
                                   cudaMemcpyDeviceToDevice, s));
    c.allgather(in_place.data_as<float>() + 3 * r, in_place.data(), 3, dtype::float32, s);
    log.got["allgather in place"] = values_of(in_place);
  }

  for (int i = 0; i < 3; ++i) c.barrier();
}

/// Runs `collectives` on every rank of `comms` and checks what each rank saw.
void check_collectives(const std::vector<communicator>& comms) {
  const int p = static_cast<int>(comms.size());
  std::vector<rank_log> logs(comms.size());
  dist::run_ranks(comms, [&](const communicator& c) { collectives(c, logs[static_cast<std::size_t>(c.rank())]); });
  for (int r = 0; r < p; ++r) {
    const communicator& c = comms[static_cast<std::size_t>(r)];
    const rank_log& log = logs[static_cast<std::size_t>(r)];
    INFO("backend " << c.backend_name() << ", " << p << " ranks, rank " << r);
    CHECK(c.rank() == r);
    CHECK(c.size() == p);
    CHECK(log.device == c.device());
    CHECK(log.own_stream);
    const auto expect = [&](const std::string& key, const values& want) {
      INFO(key);
      const auto it = log.got.find(key);
      REQUIRE(it != log.got.end());
      CHECK(it->second == want);
    };
    for (const dtype dt : {dtype::float32, dtype::float64, dtype::int32, dtype::int64, dtype::complex128}) {
      const bool complex = dt == dtype::complex128;
      const values in = reduce_input(r, complex);
      for (const reduce_op op : {reduce_op::sum, reduce_op::max, reduce_op::min}) {
        if (complex && op != reduce_op::sum) continue;
        const std::string key = std::string(dtype_name(dt)) + " " + op_name(op);
        expect(key, reduce_expected(p, op, complex));
        expect(key + " ndarray", reduce_expected(p, op, complex));
      }
      expect(std::string(dtype_name(dt)) + " sum in place", reduce_expected(p, reduce_op::sum, complex));
    }
    expect("long sum", values(100003, cplx(p * (p + 1) / 2.0, 0)));
    const int next = (r + 1) % p, prev = (r + p - 1) % p;
    for (const dtype dt : {dtype::float64, dtype::int32, dtype::int16, dtype::complex128}) {
      int m = 0;
      for (const auto& [from, fm] : {std::pair{prev, 0}, std::pair{prev, 1}, std::pair{next, 2}}) {
        values want;
        for (std::int64_t k = 0; k < message_count(from, fm); ++k) {
          const cplx v = message_value(from, fm, k);
          want.push_back(dt == dtype::complex128 ? v : cplx(v.real(), 0));
        }
        expect(std::string(dtype_name(dt)) + " exchange " + std::to_string(m++), want);
      }
    }
    for (int root = 0; root < p; ++root) {
      values want;
      for (std::int64_t i = 0; i < 5; ++i) want.emplace_back(10.0 * root + static_cast<double>(i) + 0.5, 0);
      expect("broadcast " + std::to_string(root), want);
    }
    values all;
    for (int q = 0; q < p; ++q)
      for (std::int64_t i = 0; i < 3; ++i) all.emplace_back(10.0 * q + static_cast<double>(i), 0);
    expect("allgather", all);
    expect("allgather in place", all);
  }
}

std::vector<int> visible_devices() {
  std::vector<int> d(static_cast<std::size_t>(device_count()));
  std::iota(d.begin(), d.end(), 0);
  return d;
}

}  // namespace

TEST_CASE("self communicator: one rank, collectives as copies") {
  const communicator c = dist::self_communicator();
  CHECK(c.valid());
  CHECK(c.rank() == 0);
  CHECK(c.size() == 1);
  CHECK(c.device() == get_device_id());
  CHECK(c.backend() == communicator::kind::self);
  CHECK(c.backend_name() == "self");
  check_collectives({c});
  // on the calling thread too, with the current (null) stream
  const ndarray x = device_array(reduce_input(2, false), dtype::float64);
  CHECK(values_of(c.allreduce(x, reduce_op::max)) == reduce_input(2, false));
  c.barrier();
  CHECK(dist::self_communicator(device_count() - 1).device() == device_count() - 1);
}

TEST_CASE("local group: 1, 2, 3 and 4 ranks on one device") {
  for (const int p : {1, 2, 3, 4}) {
    const std::vector<communicator> comms = dist::local_group(p);
    REQUIRE(comms.size() == static_cast<std::size_t>(p));
    CHECK(comms[0].backend() == communicator::kind::local);
    CHECK(comms[0].backend_name() == "local");
    check_collectives(comms);
    check_collectives(comms);  // the group is reusable
  }
}

TEST_CASE("local group: 40 ranks (the all-reduce kernel takes 32 sources a launch)") {
  const std::vector<communicator> comms = dist::local_group(40);
  std::vector<values> got(comms.size());
  dist::run_ranks(comms, [&](const communicator& c) {
    got[static_cast<std::size_t>(c.rank())] = values_of(c.allreduce(full({5}, c.rank() + 1, dtype::int64)));
  });
  for (const values& v : got) CHECK(v == values(5, cplx(820, 0)));
}

TEST_CASE("local group: a barrier waits for the work each rank enqueued before it") {
  const std::vector<communicator> comms = dist::local_group(2);
  ndarray shared = zeros({1 << 20}, dtype::float64);
  synchronize();
  values seen;
  dist::run_ranks(comms, [&](const communicator& c) {
    if (c.rank() == 0) shared.fill(42.0);  // on rank 0's stream
    c.barrier();
    if (c.rank() == 1) {
      const host_array h = to_host(shared[{slice{(1 << 20) - 1, {}}}]);  // the last element, on rank 1's stream
      seen = h.astype(dtype::complex128).to_vector<cplx>();
    }
  });
  CHECK(seen == values{cplx(42, 0)});
}

TEST_CASE("NCCL: init_all over device 0, and over every visible device") {
  if (!dist::have_nccl()) {
    MESSAGE("cusci was built without NCCL: init_all is checked for its error only");
    return;
  }
  const std::vector<int> one{0};
  const std::vector<communicator> single = dist::init_all(one);
  REQUIRE(single.size() == 1);
  CHECK(single[0].backend() == communicator::kind::nccl);
  CHECK(single[0].backend_name() == "nccl");
  check_collectives(single);
  const std::vector<int> devices = visible_devices();
  if (devices.size() > 1) {
    const std::vector<communicator> comms = dist::init_all(devices);
    for (std::size_t i = 0; i < comms.size(); ++i) CHECK(comms[i].device() == devices[i]);
    check_collectives(comms);
  }
  // get_unique_id + init_rank, one rank
  const communicator c = dist::init_rank(dist::get_unique_id(), 1, 0, -1);
  CHECK(c.device() == get_device_id());
  check_collectives({c});
}

TEST_CASE("errors: invalid arguments, with their types") {
  const communicator c = dist::self_communicator();
  const cudaStream_t s = get_current_stream();
  ndarray x = zeros({4}, dtype::float64);
  void* p = x.data();

  // invalid communicator
  const communicator none;
  CHECK_FALSE(none.valid());
  CHECK(starts_with(error_of([&] { (void)none.rank(); }), "value_error: "));
  CHECK(starts_with(error_of([&] { none.barrier(); }), "value_error: cusci::distributed::communicator::barrier"));
  CHECK(starts_with(error_of([&] { none.allreduce(p, p, 4, dtype::float64, reduce_op::sum, s); }), "value_error: "));
  CHECK(starts_with(error_of([&] { dist::run_ranks(std::vector<communicator>{none}, [](const communicator&) {}); }),
                    "value_error: cusci::distributed::run_ranks"));
  CHECK(starts_with(error_of([&] { dist::run_ranks(std::vector<communicator>{c, c}, [](const communicator&) {}); }),
                    "value_error: cusci::distributed::run_ranks"));
  CHECK(starts_with(error_of([&] { dist::run_ranks(std::vector<communicator>{c}, {}); }), "value_error: "));

  // dtypes
  const std::string bad_dtype = error_of([&] { c.allreduce(p, p, 4, dtype::bool_, reduce_op::sum, s); });
  CHECK(starts_with(bad_dtype, "type_error: cusci::distributed::communicator::allreduce: dt must be"));
  CHECK(contains(bad_dtype, "got bool"));
  CHECK(starts_with(error_of([&] { c.allreduce(p, p, 2, dtype::complex128, reduce_op::max, s); }), "type_error: "));
  CHECK(starts_with(error_of([&] { (void)c.allreduce(zeros({3}, dtype::float16)); }), "type_error: "));
  CHECK(starts_with(error_of([&] { (void)c.allreduce(zeros({3}, dtype::complex64), reduce_op::min); }), "type_error: "));

  // buffers and arrays
  CHECK(starts_with(error_of([&] { c.allreduce(nullptr, p, 4, dtype::float64, reduce_op::sum, s); }), "value_error: "));
  CHECK(error_of([&] { c.allreduce(nullptr, nullptr, 0, dtype::float64, reduce_op::sum, s); }).empty());
  const ndarray strided = zeros({8}, dtype::float64)[{slice{0, 8, 2}}];
  CHECK(starts_with(error_of([&] { (void)c.allreduce(strided); }), "value_error: "));
  CHECK(error_of([&] { (void)c.allreduce(zeros({0}, dtype::float64)); }).empty());

  // peers and roots
  const std::vector<message> to_one{{1, p, 4}}, from_zero{{0, p, 4}};
  const std::string bad_peer = error_of([&] { c.exchange(to_one, from_zero, dtype::float64, s); });
  CHECK(starts_with(bad_peer, "index_error: cusci::distributed::communicator::exchange: sends[0].peer must be in [0, size())"));
  CHECK(starts_with(error_of([&] { c.exchange(from_zero, to_one, dtype::float64, s); }), "index_error: "));
  CHECK(starts_with(error_of([&] { c.broadcast(p, 4, dtype::float64, 1, s); }), "index_error: "));
  CHECK(starts_with(error_of([&] { c.broadcast(p, 4, dtype::float64, -1, s); }), "index_error: "));
  // unpaired messages to itself
  const std::vector<message> three{{0, p, 3}}, two{{0, p, 2}};
  CHECK(starts_with(error_of([&] { c.exchange(three, two, dtype::float64, s); }), "value_error: "));
  CHECK(starts_with(error_of([&] { c.exchange(three, {}, dtype::float64, s); }), "value_error: "));

  // constructors
  CHECK(starts_with(error_of([&] { (void)dist::local_group(0); }), "value_error: cusci::distributed::local_group"));
  CHECK(starts_with(error_of([&] { (void)dist::local_group(-2); }), "value_error: "));
  CHECK(starts_with(error_of([&] { (void)dist::local_group(2, device_count()); }), "index_error: "));
  CHECK(starts_with(error_of([&] { (void)dist::self_communicator(device_count()); }), "index_error: "));
  const std::vector<int> twice{0, 0}, out_of_range{device_count()}, no_devices;
  const std::string repeated = error_of([&] { (void)dist::init_all(twice); });
  CHECK(repeated == "value_error: cusci::distributed::init_all: devices: device 0 appears twice (NCCL allows one rank a "
                    "GPU; local_group runs several ranks on one)");
  CHECK(starts_with(error_of([&] { (void)dist::init_all(out_of_range); }), "index_error: cusci::distributed::init_all"));
  CHECK(starts_with(error_of([&] { (void)dist::init_all(no_devices); }), "value_error: "));
  const dist::unique_id id{};
  CHECK(starts_with(error_of([&] { (void)dist::init_rank(id, 0, 0, 0); }), "value_error: cusci::distributed::init_rank"));
  CHECK(starts_with(error_of([&] { (void)dist::init_rank(id, 2, 2, 0); }), "value_error: "));
  CHECK(starts_with(error_of([&] { (void)dist::init_rank(id, 1, 0, device_count()); }), "index_error: "));
  if (!dist::have_nccl()) {
    const std::vector<int> zero{0};
    CHECK(starts_with(error_of([&] { (void)dist::init_all(zero); }), "not_implemented_error: cusci::distributed::init_all"));
    CHECK(starts_with(error_of([] { (void)dist::get_unique_id(); }), "not_implemented_error: "));
    CHECK(starts_with(error_of([&] { (void)dist::init_rank(id, 1, 0, 0); }), "not_implemented_error: "));
  }
}

TEST_CASE("local group: ranks passing mismatched arguments all throw value_error, and the group stays usable") {
  const std::vector<communicator> comms = dist::local_group(3);
  std::vector<std::vector<std::string>> errors(3);
  std::vector<values> after(3);
  dist::run_ranks(comms, [&](const communicator& c) {
    const int r = c.rank();
    auto& e = errors[static_cast<std::size_t>(r)];
    const cudaStream_t s = get_current_stream();
    ndarray buf = zeros({8}, dtype::float64);
    // rank 0 sends 3 elements to rank 1, which expects 4
    std::vector<message> sends, recvs;
    if (r == 0) sends.push_back({1, buf.data(), 3});
    if (r == 1) recvs.push_back({0, buf.data(), 4});
    e.push_back(error_of([&] { c.exchange(sends, recvs, dtype::float64, s); }));
    // rank 2 sends two messages to rank 0, which receives one
    sends.clear();
    recvs.clear();
    if (r == 2) sends = {{0, buf.data(), 1}, {0, buf.data_as<double>() + 4, 1}};
    if (r == 0) recvs.push_back({2, buf.data(), 1});
    e.push_back(error_of([&] { c.exchange(sends, recvs, dtype::float64, s); }));
    // different counts, different collectives, different roots
    e.push_back(error_of([&] { c.allreduce(buf.data(), buf.data(), r == 1 ? 5 : 4, dtype::float64, reduce_op::sum, s); }));
    e.push_back(error_of([&] {
      if (r == 2) c.barrier();
      else c.allreduce(buf.data(), buf.data(), 4, dtype::float64, reduce_op::sum, s);
    }));
    e.push_back(error_of([&] { c.broadcast(buf.data(), 4, dtype::float64, r == 0 ? 1 : 0, s); }));
    after[static_cast<std::size_t>(r)] = values_of(c.allreduce(full({2}, r, dtype::int32)));
  });
  for (int r = 0; r < 3; ++r) {
    const auto& e = errors[static_cast<std::size_t>(r)];
    INFO("rank " << r);
    REQUIRE(e.size() == 5);
    CHECK(e[0] == "value_error: cusci::distributed::communicator::exchange: message 0 from rank 0 to rank 1 has 3 "
                  "elements as sent but 4 as received");
    CHECK(e[1] == "value_error: cusci::distributed::communicator::exchange: rank 2 sends 2 messages to rank 0 but "
                  "rank 0 receives 1 from rank 2");
    CHECK(e[2] == "value_error: cusci::distributed::communicator::allreduce: the ranks passed different counts "
                  "(rank 0: 4, rank 1: 5)");
    CHECK(e[3] == "value_error: cusci::distributed::communicator: the ranks of a local group called different "
                  "collectives (rank 0: allreduce, rank 2: barrier)");
    CHECK(starts_with(e[4], "value_error: cusci::distributed::communicator::broadcast: the ranks passed different roots"));
    CHECK(after[static_cast<std::size_t>(r)] == values(2, cplx(3, 0)));
  }
}

TEST_CASE("run_ranks: a rank that throws makes the others throw instead of waiting, and is rethrown") {
  for (const int p : {2, 3, 4}) {
    const std::vector<communicator> comms = dist::local_group(p);
    std::vector<std::string> errors(static_cast<std::size_t>(p));
    const std::string thrown = error_of([&] {
      dist::run_ranks(comms, [&](const communicator& c) {
        errors[static_cast<std::size_t>(c.rank())] = error_of([&] {
          c.barrier();  // everybody gets here once
          if (c.rank() == p - 1) throw value_error("rank failed on purpose");
          c.barrier();  // the others wait for the rank that has gone
        });
        if (c.rank() == p - 1) throw value_error("rank failed on purpose");
      });
    });
    INFO(p << " ranks");
    CHECK(thrown == "value_error: rank failed on purpose");
    for (int r = 0; r + 1 < p; ++r) CHECK(errors[static_cast<std::size_t>(r)] == "runtime_error: cusci::distributed: another rank failed");
    // an aborted group stays aborted: every collective throws at once
    std::vector<std::string> later(static_cast<std::size_t>(p));
    CHECK(error_of([&] {
            dist::run_ranks(comms, [&](const communicator& c) {
              later[static_cast<std::size_t>(c.rank())] = error_of([&] { c.barrier(); });
            });
          }) == "");
    for (const std::string& e : later) CHECK(e == "runtime_error: cusci::distributed: another rank failed");
  }
  // a rank failing with a bad argument inside a collective call of the others
  const std::vector<communicator> comms = dist::local_group(2);
  const std::string thrown = error_of([&] {
    dist::run_ranks(comms, [&](const communicator& c) {
      ndarray buf = zeros({4}, dtype::float64);
      const std::vector<message> sends{{c.rank() == 0 ? 5 : 0, buf.data(), 4}}, recvs{{c.rank() == 0 ? 1 : 0, buf.data(), 4}};
      c.exchange(sends, recvs, dtype::float64, get_current_stream());
    });
  });
  CHECK(starts_with(thrown, "index_error: cusci::distributed::communicator::exchange: sends[0].peer"));
  if (dist::have_nccl() && device_count() > 1) {
    const std::vector<communicator> nccl = dist::init_all(visible_devices());
    const std::string e = error_of([&] {
      dist::run_ranks(nccl, [&](const communicator& c) {
        if (c.rank() == 0) {
          std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the others wait in the barrier
          throw value_error("rank 0 failed on purpose");
        }
        c.barrier();
      });
    });
    CHECK(e == "value_error: rank 0 failed on purpose");
    CHECK(error_of([&] { nccl[1].barrier(); }) == "runtime_error: cusci::distributed: another rank failed");
  }
}
