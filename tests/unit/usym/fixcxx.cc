// SPDX-License-Identifier: GPL-2.0
/*
 * The symboliser's C++ fixture (test_usym.c): a return address inside a
 * member function template of a namespace, whose symbol is mangled
 * (_ZN3doc6Editor4saveIiEEmT_), and the program's executable mappings:
 *   ip ADDR
 *   map START END OFFSET PATH
 */
#include <cinttypes>
#include <cstdio>
#include <cstring>

extern "C" __attribute__((noinline)) uintptr_t usym_cxx_here(void)
{
	uintptr_t ip = (uintptr_t)__builtin_extract_return_addr(__builtin_return_address(0));

	__asm__ volatile("" ::: "memory");
	return ip;
}

namespace doc {
struct Editor {
	template <class T> static __attribute__((noinline)) uintptr_t save(T n);
};

template <class T> uintptr_t Editor::save(T n)
{
	uintptr_t ip = usym_cxx_here();

	__asm__ volatile("" ::: "memory");
	return ip + (uintptr_t)(n - n);
}
} // namespace doc

int main()
{
	char line[4096];
	std::FILE *f;

	std::printf("ip %" PRIxPTR "\n", doc::Editor::save<int>(1));
	f = std::fopen("/proc/self/maps", "r");
	if (!f)
		return 1;
	while (std::fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perm[8], path[4096];

		if (std::sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &s, &e, perm, &off,
				path) == 5 && perm[2] == 'x' && std::strstr(path, "usymcxx"))
			std::printf("map %llx %llx %llx %s\n", s, e, off, path);
	}
	std::fclose(f);
	return 0;
}
