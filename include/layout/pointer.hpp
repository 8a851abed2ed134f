// Strata: pointers that say which memory they point into.
//
// A kernel moves data global → shared → registers, and the right way to move it depends on where
// it is (a 16-byte vector is always fine in registers, needs an alignment proof in global memory,
// and later floors pick cp.async, ldmatrix or TMA by memory space). So a tensor's pointer carries
// its memory space in its type: `make_gmem_ptr(p)`, `make_smem_ptr(p)`, `make_rmem_ptr(p)`. A raw
// `T*` is also a valid tensor iterator: memory unknown, treated as conservatively as global.
#pragma once

#include <cstddef>
#include <type_traits>

#include "config.hpp"

namespace strata {

enum class MemorySpace { global, shared, registers };

// mem_ptr<Space, T>: a T* that knows its memory space. Arithmetic and indexing behave as on T*.
template <MemorySpace Space, class T>
struct mem_ptr {
  using value_type = std::remove_cv_t<T>;
  using element_type = T;
  static constexpr MemorySpace space = Space;

  T* ptr = nullptr;

  mem_ptr() = default;
  STRATA_HD explicit mem_ptr(T* p) : ptr(p) {}
  // A pointer to non-const converts to a pointer to const in the same space (not across spaces).
  template <class U>
    requires std::is_convertible_v<U*, T*>
  STRATA_HD mem_ptr(mem_ptr<Space, U> const& other) : ptr(other.ptr) {}

  STRATA_HD T* get() const { return ptr; }
  STRATA_HD T& operator*() const { return *ptr; }
  STRATA_HD T* operator->() const { return ptr; }
  template <class I>
  STRATA_HD T& operator[](I const& i) const { return ptr[i]; }
  template <class I>
  STRATA_HD mem_ptr operator+(I const& i) const { return mem_ptr(ptr + i); }
  template <class I>
  STRATA_HD mem_ptr operator-(I const& i) const { return mem_ptr(ptr - i); }
  STRATA_HD bool operator==(mem_ptr const& o) const { return ptr == o.ptr; }
};

template <class T>
using gmem_ptr = mem_ptr<MemorySpace::global, T>;
template <class T>
using smem_ptr = mem_ptr<MemorySpace::shared, T>;
template <class T>
using rmem_ptr = mem_ptr<MemorySpace::registers, T>;

template <class T>
STRATA_HD gmem_ptr<T> make_gmem_ptr(T* p) { return gmem_ptr<T>(p); }
template <class T>
STRATA_HD smem_ptr<T> make_smem_ptr(T* p) { return smem_ptr<T>(p); }
template <class T>
STRATA_HD rmem_ptr<T> make_rmem_ptr(T* p) { return rmem_ptr<T>(p); }

// ---- traits ------------------------------------------------------------------------------------

template <class P>
struct is_mem_ptr : std::false_type {};
template <MemorySpace S, class T>
struct is_mem_ptr<mem_ptr<S, T>> : std::true_type {};

// A pointer: a raw T* or a memory-tagged one. (Tensors also accept iterators that are not
// pointers, e.g. the coordinate iterator of an identity tensor; those cannot be recast or copied
// as bytes.)
template <class P>
concept Pointer = std::is_pointer_v<std::remove_cvref_t<P>> || is_mem_ptr<std::remove_cvref_t<P>>::value;

template <class P>
inline constexpr bool is_gmem_v = false;
template <class T>
inline constexpr bool is_gmem_v<gmem_ptr<T>> = true;
template <class P>
inline constexpr bool is_smem_v = false;
template <class T>
inline constexpr bool is_smem_v<smem_ptr<T>> = true;
template <class P>
inline constexpr bool is_rmem_v = false;
template <class T>
inline constexpr bool is_rmem_v<rmem_ptr<T>> = true;

// raw_pointer_cast(p): the plain T* behind a pointer, tagged or not.
template <class T>
STRATA_HD T* raw_pointer_cast(T* p) { return p; }
template <MemorySpace S, class T>
STRATA_HD T* raw_pointer_cast(mem_ptr<S, T> p) { return p.ptr; }

// recast_ptr<New>(p): the same address seen as New, in the same memory space; const stays const.
template <class New, class T>
STRATA_HD auto recast_ptr(T* p) {
  using N = std::conditional_t<std::is_const_v<T>, New const, New>;
  return reinterpret_cast<N*>(p);
}
template <class New, MemorySpace S, class T>
STRATA_HD auto recast_ptr(mem_ptr<S, T> p) {
  using N = std::conditional_t<std::is_const_v<T>, New const, New>;
  return mem_ptr<S, N>(reinterpret_cast<N*>(p.ptr));
}

}  // namespace strata
