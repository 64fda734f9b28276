// SPDX-License-Identifier: GPL-2.0
/*
 * The build-id note of an ELF file (elfnote.h).  Layouts from the ELF
 * specification as <elf.h> gives them: the file header, program headers
 * (PT_NOTE segments), and notes (namesz, descsz, type, then the name and
 * the descriptor, each padded to 4 bytes); the build-id is the note of
 * type NT_GNU_BUILD_ID named "GNU".
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfnote.h"

#define NOTES_MAX	(64u * 1024)
#define PHDRS_MAX	4096

static int rd(const struct tm_elf_src *src, uint64_t off, void *buf,
	      size_t len, struct tm_err *e)
{
	int err = src->read(src->ctx, off, buf, len);

	if (err == -EINVAL)
		return tm_err_set(e, EINVAL, "ELF file truncated at byte %llu",
				  (unsigned long long)off);
	if (err)
		return tm_err_set(e, -err, "ELF file unreadable: %s",
				  strerror(-err));
	return 0;
}

/* The build-id among the notes @n of @len bytes.  Return: 0 or -ENOENT. */
static int find_in_notes(const unsigned char *n, size_t len,
			 unsigned char *id, size_t *idlen)
{
	size_t off = 0;

	while (len - off >= 12) {
		uint32_t namesz, descsz, type;
		size_t name_pad, desc_pad;

		memcpy(&namesz, n + off, 4);
		memcpy(&descsz, n + off + 4, 4);
		memcpy(&type, n + off + 8, 4);
		off += 12;
		name_pad = ((size_t)namesz + 3) & ~(size_t)3;
		desc_pad = ((size_t)descsz + 3) & ~(size_t)3;
		if (namesz > len - off || name_pad > len - off ||
		    descsz > len - off - name_pad)
			return -ENOENT;		/* a note past the end */
		if (type == NT_GNU_BUILD_ID && namesz == 4 &&
		    !memcmp(n + off, "GNU", 4) && descsz &&
		    descsz <= TM_BUILD_ID_MAX) {
			memcpy(id, n + off + name_pad, descsz);
			*idlen = descsz;
			return 0;
		}
		if (desc_pad > len - off - name_pad)
			return -ENOENT;
		off += name_pad + desc_pad;
	}
	return -ENOENT;
}

int tm_elf_build_id(const struct tm_elf_src *src,
		    unsigned char id[TM_BUILD_ID_MAX], size_t *idlen,
		    struct tm_err *e)
{
	unsigned char *notes;
	Elf64_Ehdr eh;
	unsigned int i;
	int err;

	err = rd(src, 0, &eh, sizeof(eh), e);
	if (err)
		return err;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return tm_err_set(e, EINVAL, "not a 64-bit little-endian ELF file");
	if (eh.e_phnum && eh.e_phentsize != sizeof(Elf64_Phdr))
		return tm_err_set(e, EINVAL, "ELF program header size %u",
				  eh.e_phentsize);
	if (eh.e_phnum > PHDRS_MAX)
		return tm_err_set(e, EINVAL, "%u ELF program headers", eh.e_phnum);
	for (i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		if (eh.e_phoff > UINT64_MAX - (uint64_t)i * sizeof(ph))
			return tm_err_set(e, EINVAL, "ELF program headers past the end");
		err = rd(src, eh.e_phoff + (uint64_t)i * sizeof(ph), &ph,
			 sizeof(ph), e);
		if (err)
			return err;
		if (ph.p_type != PT_NOTE || !ph.p_filesz)
			continue;
		if (ph.p_filesz > NOTES_MAX)
			return tm_err_set(e, EINVAL, "ELF note segment of %llu bytes",
					  (unsigned long long)ph.p_filesz);
		notes = malloc(ph.p_filesz);
		if (!notes)
			return tm_err_set(e, ENOMEM, "out of memory");
		err = rd(src, ph.p_offset, notes, ph.p_filesz, e);
		if (!err)
			err = find_in_notes(notes, ph.p_filesz, id, idlen) ? 1 : 0;
		free(notes);
		if (err <= 0)
			return err;
	}
	return tm_err_set(e, ENOENT, "no build-id note");
}

int tm_elf_mem_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	const struct tm_elf_mem *m = ctx;

	if (off > m->size || len > m->size - off)
		return -EINVAL;
	memcpy(buf, m->data + off, len);
	return 0;
}

int tm_elf_fd_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	int fd = *(int *)ctx;
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, (char *)buf + got, len - got,
				  (off_t)(off + got));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!n)
			return -EINVAL;
		got += (size_t)n;
	}
	return 0;
}
