# shellcheck shell=bash
# Slow block devices and the stacks real machines put on them, for the VM
# tests that wait for I/O (t-stack, t-pagefault, t-catalogue): sourced in
# the guest after tests/lib/tap.sh.  Each function makes one layer and
# prints the name of the device it made (nullb1, dm-0, md0, loop0); it
# fails (status 1, its tools' messages on stderr) if it could not.  The
# guest has no udev: device-mapper, LVM and mdadm are told so.

# blk_nullb NAME MS MB [BLOCKSIZE]: a memory-backed null_blk device NAME
# (nullbN) of MB MiB, completing every request MS ms after it was issued
# (a timer: irqmode 2), made in configfs (null_blk loaded without devices
# of its own)
blk_nullb() {
	local nb=/sys/kernel/config/nullb/$1
	{ [ -d /sys/kernel/config/nullb ] || modprobe null_blk nr_devices=0; } &&
		{ mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config; } &&
		mkdir "$nb" && echo 2 > "$nb/queue_mode" && echo 2 > "$nb/irqmode" &&
		echo $(($2 * 1000000)) > "$nb/completion_nsec" && echo 1 > "$nb/memory_backed" &&
		echo "$3" > "$nb/size" && echo "${4:-4096}" > "$nb/blocksize" &&
		echo 1 > "$nb/power" && [ -b "/dev/$1" ] && echo "$1"
}

# dm_dev NAME: the dm-N device of device-mapper device NAME
dm_dev() { dmsetup info -c --noheadings -o blkdevname "$1"; }

# blk_delay NAME DEV MS: a device-mapper delay target NAME over /dev/DEV,
# holding every bio MS ms before it sends it on
blk_delay() {
	modprobe dm-delay &&
		dmsetup create "$1" --table "0 $(blockdev --getsz "/dev/$2") delay /dev/$2 0 $3" &&
		dm_dev "$1"
}

# blk_crypt NAME DEV: dm-crypt, LUKS2 on /dev/DEV opened as NAME, its key
# derived in 1000 rounds (the test needs no strength, and TCG is slow)
# (the kernel cannot load the cipher by itself: its modprobe helper runs in
# the initramfs, not in the root the test runs in)
blk_crypt() {
	modprobe -a dm-crypt xts aes_generic &&
		printf tipme | cryptsetup luksFormat --batch-mode --type luks2 --pbkdf pbkdf2 \
			--pbkdf-force-iterations 1000 --key-file - "/dev/$2" >&2 &&
		printf tipme | cryptsetup open --key-file - "/dev/$2" "$1" >&2 && dm_dev "$1"
}

# LVM without udev or its daemons, seeing null_blk devices
# (LVM does not know null_blk's type of device by itself)
LVM_CONFIG='activation { udev_sync = 0 udev_rules = 0 monitoring = 0 }
devices { obtain_device_list_from_udev = 0 use_devicesfile = 0 types = [ "nullb", 16 ] }'
lvm_() { DM_DISABLE_UDEV=1 lvm "$1" --config "$LVM_CONFIG" "${@:2}"; }

# blk_lvm VG DEV MB: volume group VG on /dev/DEV, a linear logical volume
# VG/lv of MB MiB (device-mapper name VG-lv)
blk_lvm() {
	modprobe dm-mod &&
		lvm_ pvcreate -q -y "/dev/$2" >&2 && lvm_ vgcreate -q "$1" "/dev/$2" >&2 &&
		lvm_ lvcreate -q -y -Zn -Wn -n lv -L "${3}m" "$1" >&2 && dm_dev "$1-lv"
}

# blk_lvm_remove VG
blk_lvm_remove() { lvm_ vgremove -q -y -f "$1" >&2; }

# blk_md NAME DEV1 DEV2: md RAID1 /dev/NAME (md0) over /dev/DEV1 and
# /dev/DEV2, both legs already the same (no resync); mdadm makes the
# device node itself (no udev)
blk_md() {
	modprobe raid1 &&
		MDADM_NO_UDEV=1 mdadm --create "/dev/$1" --level=1 --raid-devices=2 --metadata=1.2 --assume-clean \
			--run --quiet --homehost=tipme "/dev/$2" "/dev/$3" >&2 && echo "$1"
}

# blk_loop DEV: a loop device over /dev/DEV (or a file), direct I/O: the
# loop's worker reads and writes the device below itself
blk_loop() {
	local l
	modprobe loop && l=$(losetup --direct-io=on -f --show "$1") && basename "$l"
}

# blk_ext4 DEV DIR [MB]: ext4 on /dev/DEV of MB MiB (64 by default; its
# inode tables and journal written at once, so that no lazy initialisation
# runs later), mounted on DIR
blk_ext4() {
	modprobe ext4 &&
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "/dev/$1" "${3:-64}M" >&2 &&
		mkdir -p "$2" && mount -t ext4 "/dev/$1" "$2"
}

# blk_image DEV DIR MB: a disk image, DIR/disk.img of MB MiB written out
# (no unwritten extents), in ext4 on /dev/DEV mounted on DIR: for a loop
# device over a file (blk_loop DIR/disk.img)
blk_image() {
	blk_ext4 "$1" "$2" $(($3 + 24)) &&
		dd if=/dev/zero of="$2/disk.img" bs=1M count="$3" conv=fsync status=none
}
