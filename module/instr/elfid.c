// SPDX-License-Identifier: GPL-2.0
/*
 * The GNU build-id note of an ELF file (elfid.h): the file header, its
 * program headers (at most TIPME_ELFID_CHUNK bytes of them, read at
 * once), and each PT_NOTE segment of at most TIPME_ELFID_CHUNK bytes,
 * whose notes (namesz, descsz, type, then the name and the descriptor,
 * each padded to 4 bytes) are searched for the one of type
 * NT_GNU_BUILD_ID named "GNU".  64-bit little-endian files only, as
 * lib/elfnote.c reads them; every field is read byte by byte, so the
 * bytes may sit anywhere.
 *
 * What it finds, lib/elfnote.c finds too: where that reader would search
 * further than these bounds allow (more program headers, a larger note
 * segment, a build-id longer than @max), this one gives up instead of
 * skipping ahead, so the two never name different build-ids for one file
 * (the fuzzer checks it).  Never sleeps unless @rd does.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <string.h>
#endif
#include "elfid.h"

#define EH_SIZE		64	/* Elf64_Ehdr */
#define EH_PHOFF	32
#define EH_PHENTSIZE	54
#define EH_PHNUM	56
#define PH_SIZE		56	/* Elf64_Phdr */
#define PH_OFFSET	8
#define PH_FILESZ	32
#define PT_NOTE_TYPE	4
#define NT_GNU_BUILD_ID_TYPE	3

static __u32 le16(const __u8 *p)
{
	return p[0] | (__u32)p[1] << 8;
}

static __u32 le32(const __u8 *p)
{
	return le16(p) | (__u32)le16(p + 2) << 16;
}

static __u64 le64(const __u8 *p)
{
	return le32(p) | (__u64)le32(p + 4) << 32;
}

/*
 * The build-id among the notes @n of @len bytes, copied to @id.  Return:
 * its length; 0 if none; -ENOENT when a build-id note is longer than @max
 * (the search stops there).
 */
static int find_note(const __u8 *n, __u32 len, __u8 *id, unsigned int max)
{
	__u32 off = 0;

	while (len - off >= 12) {
		__u32 namesz = le32(n + off), descsz = le32(n + off + 4);
		__u32 type = le32(n + off + 8), name_pad, desc_pad;

		off += 12;
		if (namesz > len - off || descsz > len - off)
			return 0;		/* a note past the end */
		name_pad = (namesz + 3) & ~3u;
		if (name_pad > len - off || descsz > len - off - name_pad)
			return 0;
		if (type == NT_GNU_BUILD_ID_TYPE && namesz == 4 &&
		    !memcmp(n + off, "GNU", 4) && descsz) {
			if (descsz > max)
				return -ENOENT;
			memcpy(id, n + off + name_pad, descsz);
			return descsz;
		}
		desc_pad = (descsz + 3) & ~3u;
		if (desc_pad > len - off - name_pad)
			return 0;
		off += name_pad + desc_pad;
	}
	return 0;
}

/**
 * tipme_elf_build_id() - the build-id of an ELF file
 * @rd: reads the file's bytes
 * @ctx: @rd's argument
 * @scratch: TIPME_ELFID_SCRATCH bytes to work in
 * @id: set to the build-id, at most @max bytes
 * @max: room in @id
 *
 * Context: whatever @rd needs; the caller owns @scratch.
 * Return: the build-id's length in bytes; -ENOENT if the file has none
 * within the bounds (elfid.h), -EINVAL if it is not a 64-bit
 * little-endian ELF file, or @rd's error.
 */
int tipme_elf_build_id(tipme_elfid_read_fn rd, void *ctx, __u8 *scratch,
		       __u8 *id, unsigned int max)
{
	__u8 *ph = scratch, *notes = scratch + TIPME_ELFID_CHUNK;
	__u32 phnum, i, len;
	__u64 phoff;
	int err;

	err = rd(ctx, 0, scratch, EH_SIZE);
	if (err)
		return err;
	if (memcmp(scratch, "\177ELF", 4) || scratch[4] != 2 /* ELFCLASS64 */ ||
	    scratch[5] != 1 /* ELFDATA2LSB */)
		return -EINVAL;
	phoff = le64(scratch + EH_PHOFF);
	phnum = le16(scratch + EH_PHNUM);
	if (!phnum)
		return -ENOENT;
	if (le16(scratch + EH_PHENTSIZE) != PH_SIZE)
		return -EINVAL;
	if (phnum > TIPME_ELFID_CHUNK / PH_SIZE)
		return -ENOENT;
	err = rd(ctx, phoff, ph, phnum * PH_SIZE);
	if (err)
		return err;
	for (i = 0; i < phnum; i++) {
		const __u8 *p = ph + i * PH_SIZE;
		__u64 filesz = le64(p + PH_FILESZ);

		if (le32(p) != PT_NOTE_TYPE || !filesz)
			continue;
		if (filesz > TIPME_ELFID_CHUNK)
			return -ENOENT;
		len = (__u32)filesz;
		err = rd(ctx, le64(p + PH_OFFSET), notes, len);
		if (err)
			return err;
		err = find_note(notes, len, id, max);
		if (err)
			return err;
	}
	return -ENOENT;
}
