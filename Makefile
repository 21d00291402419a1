# assay: one entry point.  Settings go in an optional config.mak, never here.
#   make deps     install the Debian packages the build needs (root) or print the command
#   make          build build/assay, build/init and the image (kernel + initramfs)
#   make run      boot the image under QEMU, run the default suite, print the results
#   make test     unit tests + boot tests
#   make image    only the image;  make docs  docs/options.md;  make clean  remove build/
#   make iso, pxe, maas   a boot ISO, a network boot folder, the MAAS testing script
# V=1 prints full commands.

BUILD      ?= build
CC         := musl-gcc
HOSTCC     ?= cc
CFLAGS     ?= -O2 -g
WARN       ?= -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
              -Wno-format-truncation
LDFLAGS    ?=
# -static for the image's programs; empty in the sanitizer build (make check-asan)
STATIC     ?= -static
# Debian kernel package for the default image; empty = what linux-image-amd64 depends on.
KERNEL_PKG ?=
# Extra kernel modules (names) to put in the initramfs beside rootfs/modules.list.
MODULES_EXTRA ?=
# Extra arguments for qemu/run in `make run` (e.g. RUN_ARGS="--append assay.suite=full").
RUN_ARGS   ?=
# Extra arguments for tests/run (e.g. TEST_ARGS="--unit-only").
TEST_ARGS  ?=
# The image's kernel: debian (Debian's packaged kernel + modules) or custom (our own,
# built by `make kernel` from kernel-config/, everything built in).
KERNEL     ?= debian
# Kernels `make test` boots the boot tests with; tests at a time.
TEST_KERNELS ?= debian,custom
TEST_JOBS  ?= 2
SOURCE_DATE_EPOCH ?= 0

-include config.mak

ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-7s %s\n' $(1) $(2)
endif

export BUILD SOURCE_DATE_EPOCH KERNEL_PKG MODULES_EXTRA V KERNEL

SYSINC     := $(BUILD)/include
KMOD_LIB   := $(BUILD)/kmod/lib/libkmod.a
TLS_DIR    ?= $(BUILD)/bearssl
TLS_LIB    := $(TLS_DIR)/lib/libbearssl.a
URING_LIB  := /usr/lib/x86_64-linux-gnu/liburing.a
ALL_CFLAGS := -std=gnu11 $(CFLAGS) $(WARN) -I$(SYSINC) -Ilib -Ibench -D_GNU_SOURCE -MMD -MP \
              -DASSAY_VERSION=\"$(shell cat VERSION)\"

# Sources are found by folder (as musl's Makefile): lib/ is what init and bench share,
# bench/ and its subsystem folders the assay CLI, init/ PID 1.
LIB_SRC    := $(wildcard lib/*.c)
LIB_OBJ    := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_SRC  := $(filter-out bench/main.c,$(wildcard bench/*.c bench/*/*.c bench/*/*/*.c))
BENCH_SRC  := $(filter-out bench/probe/%,$(BENCH_SRC))
BENCH_OBJ  := $(BENCH_SRC:%.c=$(BUILD)/obj/%.o)
INIT_SRC   := $(wildcard init/*.c)
INIT_OBJ   := $(INIT_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_SRC   := $(wildcard tests/unit/*.c)
UNIT_BIN   := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
# host programs the tests use (built with the host's compiler, never in the image)
HELPERS    := $(BUILD)/helpers/faultfs

ifeq ($(KERNEL),custom)
IMAGE      := $(BUILD)/custom/vmlinuz $(BUILD)/custom/initramfs.cpio.xz
IMAGE_DEPS := deps-kernel
else ifeq ($(KERNEL),debian)
IMAGE      := $(BUILD)/vmlinuz $(BUILD)/initramfs.cpio.xz
IMAGE_DEPS :=
else
$(error KERNEL=$(KERNEL): accepted: debian, custom)
endif

.PHONY: check-asan check-powerloss docs all deps deps-test deps-kernel deps-iso deps-fuzz fuzz build image run test unit boot clean results-disk kernel iso pxe maas
all: deps $(IMAGE_DEPS)
	$(Q)$(MAKE) --no-print-directory build

build: $(BUILD)/assay $(BUILD)/init $(BUILD)/qd1-bare image-files

deps:
	$(Q)mk/deps.sh build

deps-test:
	$(Q)mk/deps.sh build test kernel

deps-kernel:
	$(Q)mk/deps.sh build kernel

deps-iso:
	$(Q)mk/deps.sh build iso

deps-fuzz:
	$(Q)mk/deps.sh fuzz

# libFuzzer targets (JSON, DNS replies, console extraction), FUZZ_TIME seconds each
FUZZ_TIME ?= 60
fuzz: deps-fuzz
	$(Q)tests/fuzz/run.sh $(FUZZ_TIME)

# --- headers: musl's own plus the kernel UAPI and liburing, apart from glibc's ---
$(BUILD)/include/.stamp: mk/sysinc.sh
	$(call msg,GEN,$(SYSINC))
	$(Q)mk/sysinc.sh $(SYSINC)
	$(Q)touch $@

# --- libkmod, static, musl: built once from Debian's kmod source package ---
$(KMOD_LIB): mk/kmod.sh mk/debsrc.sh
	$(call msg,KMOD,$@)
	$(Q)mk/kmod.sh $(BUILD)/kmod

# --- BearSSL, static, musl (https:// pushes): built once from Debian's bearssl source ---
$(TLS_LIB): mk/bearssl.sh mk/debsrc.sh
	$(call msg,BEARSSL,$@)
	$(Q)mk/bearssl.sh $(TLS_DIR)

$(BUILD)/obj/%.o: %.c $(BUILD)/include/.stamp
	$(call msg,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/obj/init/%.o: ALL_CFLAGS += -Iinit -I$(BUILD)/kmod/include
$(INIT_OBJ): $(KMOD_LIB)
$(BUILD)/obj/bench/net/tls.o: ALL_CFLAGS += -I$(TLS_DIR)/include
$(BUILD)/obj/bench/net/tls.o: $(TLS_LIB)

# lib/ alone (what init links) and everything (assay, the unit tests)
$(BUILD)/liblib.a: $(LIB_OBJ)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcD $@ $^

$(BUILD)/libassay.a: $(BENCH_OBJ) $(LIB_OBJ)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcD $@ $^

$(BUILD)/assay: $(BUILD)/obj/bench/main.o $(BUILD)/libassay.a
	$(call msg,LD,$@)
	$(Q)$(CC) $(STATIC) $(LDFLAGS) -o $@ $^ $(URING_LIB) $(TLS_LIB) -lm

# bench/compare-fio --bare: the QD1 loop with nothing else (not part of the image)
$(BUILD)/qd1-bare: bench/probe/qd1-bare.c $(BUILD)/libassay.a $(BUILD)/include/.stamp
	$(call msg,LD,$@)
	$(Q)$(CC) -static $(ALL_CFLAGS) -MF $(BUILD)/obj/qd1-bare.d $(LDFLAGS) -o $@ $< $(BUILD)/libassay.a $(URING_LIB) $(TLS_LIB) -lm

$(BUILD)/init: $(INIT_OBJ) $(BUILD)/liblib.a $(KMOD_LIB)
	$(call msg,LD,$@)
	$(Q)$(CC) -static $(LDFLAGS) -o $@ $^

# --- the image: Debian's kernel + our reproducible initramfs ---
$(BUILD)/kernel/.stamp: mk/kernel.sh
	$(call msg,KERNEL,$(BUILD)/kernel)
	$(Q)mk/kernel.sh $(BUILD)/kernel
	$(Q)touch $@

$(BUILD)/vmlinuz: $(BUILD)/kernel/.stamp
	$(Q)cp $(BUILD)/kernel/vmlinuz $@

$(BUILD)/mkcpio: rootfs/mkcpio.c
	$(call msg,HOSTCC,$<)
	$(Q)$(HOSTCC) -O2 -Wall -Wextra -o $@ $<

$(BUILD)/initramfs.cpio.xz: $(BUILD)/init $(BUILD)/assay $(BUILD)/mkcpio $(BUILD)/kernel/.stamp \
		rootfs/build.sh rootfs/files.list rootfs/applets.list rootfs/modules.list \
		$(wildcard rootfs/etc/*)
	$(call msg,CPIO,$@)
	$(Q)rootfs/build.sh $@

# --- our own kernel (kernel-config/): built from Debian's linux-source, cached ---
$(BUILD)/kbuild/bzImage: kernel-config/assay.config mk/kernel-build.sh
	$(call msg,KERNEL,$@)
	$(Q)mk/kernel-build.sh $(BUILD)/kbuild kernel-config/assay.config

$(BUILD)/custom/vmlinuz: $(BUILD)/kbuild/bzImage
	@mkdir -p $(@D)
	$(Q)cp $< $@

$(BUILD)/custom/initramfs.cpio.xz: $(BUILD)/init $(BUILD)/assay $(BUILD)/mkcpio \
		rootfs/build.sh rootfs/files.list rootfs/applets.list $(wildcard rootfs/etc/*)
	$(call msg,CPIO,$@)
	@mkdir -p $(@D)
	$(Q)rootfs/build.sh $@ nomodules

# --- every way to boot: ISO (BIOS + UEFI), PXE; kexec is `assay kexec` ---
iso: deps-iso $(IMAGE_DEPS)
	$(Q)$(MAKE) --no-print-directory image-files
	$(call msg,ISO,$(BUILD)/assay.iso)
	$(Q)mk/iso.sh $(BUILD)/assay.iso $(IMAGE)

pxe: deps $(IMAGE_DEPS)
	$(Q)$(MAKE) --no-print-directory image-files
	$(call msg,PXE,$(BUILD)/pxe)
	$(Q)mk/pxe.sh $(BUILD)/pxe $(IMAGE)

# the MAAS testing script with the static assay inside (docs/fleet.md)
maas: deps
	$(Q)$(MAKE) --no-print-directory $(BUILD)/assay
	$(call msg,MAAS,$(BUILD)/maas-assay.sh)
	$(Q)mk/maas.sh $(BUILD)/maas-assay.sh $(BUILD)/assay

kernel: deps-kernel
	$(Q)$(MAKE) --no-print-directory $(BUILD)/kbuild/bzImage

image-files: $(IMAGE)
image: deps $(IMAGE_DEPS)
	$(Q)$(MAKE) --no-print-directory image-files

# --- using it ---
run: deps $(IMAGE_DEPS)
	$(Q)$(MAKE) --no-print-directory build
	$(Q)qemu/run --kernel $(word 1,$(IMAGE)) --initrd $(word 2,$(IMAGE)) $(RUN_ARGS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libassay.a $(BUILD)/include/.stamp
	$(call msg,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -MF $(BUILD)/tests/$*.d -Itests/unit $(STATIC) $(LDFLAGS) -o $@ $< $(BUILD)/libassay.a $(URING_LIB) $(TLS_LIB) -lm

# faultfs: a FUSE file whose reads/writes fail where told (disk errors for host tests)
$(BUILD)/helpers/faultfs: tests/helpers/faultfs.c
	$(call msg,HOSTCC,$<)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) -O2 $(WARN) $$(pkg-config --cflags fuse3) -o $@ $< $$(pkg-config --libs fuse3)

# our kernel builds (niced) while the unit and host tests run; the boot tests wait for it
test: deps-test deps-iso
	$(Q)$(MAKE) --no-print-directory -j$(TEST_JOBS) build $(UNIT_BIN) $(HELPERS)
	$(Q)tests/run -j $(TEST_JOBS) --kernels $(TEST_KERNELS) \
		--build-meanwhile "$(MAKE) --no-print-directory KERNEL=custom image-files" $(TEST_ARGS)

# make check-asan: the same sources built with glibc, AddressSanitizer and
# UndefinedBehaviorSanitizer (build/asan); its unit tests, then every host test with that
# assay; any sanitizer report fails it (kept in build/asan/reports)
ASAN_CFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
check-asan: deps-test
	$(Q)$(MAKE) --no-print-directory -j$(TEST_JOBS) build $(HELPERS)
	$(Q)$(MAKE) --no-print-directory -j$(TEST_JOBS) BUILD=$(BUILD)/asan CC=gcc STATIC= TLS_DIR=$(abspath $(BUILD))/bearssl \
		CFLAGS="$(ASAN_CFLAGS)" LDFLAGS="$(ASAN_CFLAGS)" $(BUILD)/asan/assay $(UNIT_SRC:tests/unit/%.c=$(BUILD)/asan/tests/%)
	$(Q)tests/check-asan $(TEST_ARGS)

# make check-powerloss: QEMU killed while the image writes its results, TRIALS times
# (seeds printed; tests/powerloss 1 SEED replays one)
TRIALS ?= 20
check-powerloss: deps-test
	$(Q)$(MAKE) --no-print-directory build
	$(Q)tests/powerloss $(TRIALS)

unit: deps-test
	$(Q)$(MAKE) --no-print-directory build $(UNIT_BIN) $(HELPERS)
	$(Q)tests/run --unit-only -j $(TEST_JOBS) $(TEST_ARGS)

# docs/options.md: every option of every command, from the option tables; docs/fleet.md's
# table of metrics (tests/host/layout.sh fails when either checked-in copy is stale)
docs: $(BUILD)/assay
	$(Q)$(BUILD)/assay --options-markdown > docs/options.md
	$(Q)mk/metrics-doc.sh $(BUILD)/assay docs/fleet.md

# A results disk for `qemu/run --results build/results.img` (FAT labelled ASSAY, no root)
results-disk: deps
	$(Q)$(MAKE) --no-print-directory $(BUILD)/assay
	$(Q)test -e $(BUILD)/results.img && echo "$(BUILD)/results.img exists" || $(BUILD)/assay mkresults $(BUILD)/results.img 32m

clean:
	rm -rf $(BUILD)

# header dependencies (-MMD)
-include $(wildcard $(BUILD)/obj/*/*.d $(BUILD)/obj/*/*/*.d $(BUILD)/obj/*/*/*/*.d $(BUILD)/tests/*.d)
