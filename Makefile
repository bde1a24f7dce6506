# Thin wrapper over meson: installs what is missing, builds, runs.
#   make demo   build and run tfresolve on fixtures/demo
#   make test   build with ASan+UBSan and run the whole suite (in an
#               environment of its own: none of the caller's TF_VAR_*,
#               NO_COLOR, locale...); the plain build too, for the test
#               that runs under `ulimit -v` (ASan cannot)
#   make bench  run the benchmarks (optimised build)
#   make release        static binaries, .deb packages, SHA256SUMS in dist/
#   make release-check  make release, then try every install channel

BUILD      ?= build
TESTBUILD  ?= build-asan
BENCHBUILD ?= build-release

# Debian packages: what building tfresolve needs (BUILD_PKGS: make, make
# demo), and what the suite adds (TEST_PKGS: make test, make bench).
# scripts/deps.sh installs the missing ones (two clones set up at once
# take turns); off Debian it names the pkg-config modules to install
# instead.  NODEPS=1 skips it.
BUILD_PKGS = gcc g++ flex bison meson ninja-build pkg-config libutf8proc-dev \
             libmpfr-dev libgmp-dev libyaml-dev libre2-dev libssl-dev \
             zlib1g-dev libcrypt-dev libedit-dev libjansson-dev
TEST_PKGS  = libcmocka-dev python3 python3-yaml clang-format neovim \
             emacs-nox elpa-eglot

# What make release and make release-check add (Debian only): the arm64
# cross toolchain and the :arm64 libraries (multiarch: deps.sh adds the
# architecture), qemu-user to run arm64 binaries, the Debian packaging
# tools, buildah (the container image, built without a daemon), clang
# (the -Wpedantic portability build) and curl (the action's download).
ARM64_LIBS   = libutf8proc-dev libmpfr-dev libgmp-dev libyaml-dev libre2-dev \
               libssl-dev zlib1g-dev libcrypt-dev libedit-dev libjansson-dev
RELEASE_PKGS = crossbuild-essential-arm64 $(ARM64_LIBS:%=%:arm64) qemu-user \
               file binutils git dpkg-dev debhelper lintian buildah clang \
               curl python3 python3-yaml

# The pkg-config modules of meson.build's dependencies (off Debian).
BUILD_PC = libutf8proc mpfr gmp yaml-0.1 re2 libcrypto zlib libxcrypt \
           libedit jansson
TEST_PC  = cmocka

ifeq ($(NODEPS),1)
DEPS_BUILD   =
DEPS_TEST    =
DEPS_RELEASE =
else
DEPS_BUILD   = deps-build
DEPS_TEST    = deps-test
DEPS_RELEASE = deps-release
endif

.PHONY: all deps deps-build deps-test deps-release demo test bench clean \
        release release-check

all: $(BUILD)/tfresolve

deps: deps-build deps-test

deps-build:
	@PC_MODULES="$(BUILD_PC)" sh scripts/deps.sh $(BUILD_PKGS)

deps-test:
	@PC_MODULES="$(BUILD_PC) $(TEST_PC)" sh scripts/deps.sh $(BUILD_PKGS) $(TEST_PKGS)

deps-release:
	@PC_MODULES="$(BUILD_PC)" sh scripts/deps.sh $(BUILD_PKGS) $(RELEASE_PKGS)

$(BUILD)/build.ninja:
	meson setup $(BUILD) -Dtests=disabled

$(BUILD)/tfresolve: $(DEPS_BUILD) $(BUILD)/build.ninja FORCE
	ninja -C $(BUILD)

TFR = $(CURDIR)/$(BUILD)/tfresolve

demo: $(BUILD)/tfresolve
	@echo '== tfresolve show: every variable of fixtures/demo, with an env and a -var layer'
	@echo '   TF_VAR_db_password=hunter2 TF_VAR_region=eu-central-1 tfresolve show -var instance_count=5'
	@cd fixtures/demo && TF_VAR_db_password=hunter2 TF_VAR_region=eu-central-1 \
	  $(TFR) show -no-color -var instance_count=5
	@echo
	@echo '== tfresolve explain instance_count: who set it, who won, and the conversion'
	@cd fixtures/demo && TF_VAR_db_password=hunter2 \
	  $(TFR) explain -no-color instance_count -var instance_count=5
	@echo
	@echo '== tfresolve check, with a bad value on the command line'
	@cd fixtures/demo && TF_VAR_db_password=hunter2 \
	  $(TFR) check -no-color -var 'scaling={min = "one", max = 4}' || true
	@echo
	@echo '== tfresolve check -var-file-each: five environments at once (fixtures/envs)'
	@cd fixtures/envs && $(TFR) check -no-color -var-file-each 'envs/*.tfvars' 2>&1 || true
	@echo
	@echo '== tfresolve console: the module'"'"'s variables, locals and functions (fixtures/console)'
	@cd fixtures/console && for e in 'local.azs' 'cidrsubnets("10.0.0.0/16", 4, 4)' \
	  'type(local.common_tags)'; do echo "> $$e"; echo "$$e" | $(TFR) console -no-color; done
	@echo
	@echo '== tfresolve parse fixtures/demo-broken (a file with a syntax error)'
	@$(TFR) parse -no-color fixtures/demo-broken || true

$(TESTBUILD)/build.ninja:
	meson setup $(TESTBUILD) -Db_sanitize=address,undefined -Db_lundef=false \
	  -Dbuildtype=debug -Dtests=enabled

test: $(DEPS_TEST) $(TESTBUILD)/build.ninja $(BUILD)/tfresolve
	@start=$$(date +%s); ninja -C $(TESTBUILD) || exit 1; \
	 env -i PATH="$$PATH" HOME="$$HOME" $${TMPDIR:+TMPDIR="$$TMPDIR"} \
	 TFR_PLAIN_BINARY="$(TFR)" \
	 LANG=C.UTF-8 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	 meson test -C $(TESTBUILD) --no-rebuild --print-errorlogs \
	   --no-suite benchmark; status=$$?; \
	 python3 tests/summary.py $(TESTBUILD) $$start; \
	 exit $$status

$(BENCHBUILD)/build.ninja:
	meson setup $(BENCHBUILD) -Dbuildtype=release -Dtests=enabled

bench: $(DEPS_TEST) $(BENCHBUILD)/build.ninja
	ninja -C $(BENCHBUILD)
	meson test -C $(BENCHBUILD) --benchmark --verbose

# The release (scripts/release/): static tfresolve for linux-amd64 and
# linux-arm64 packed in DIST/tfresolve-VERSION-linux-ARCH.tar.gz, the
# Debian packages, DIST/SHA256SUMS.
DIST ?= dist

release: $(DEPS_RELEASE)
	@rm -rf $(DIST)
	@sh scripts/release/build.sh $(DIST)
	@sh scripts/release/deb.sh $(DIST)
	@sh scripts/release/sums.sh $(DIST)

# Everything a user installs, tried as a user would: the binaries (amd64
# alone in an empty root, arm64 under qemu-user, the golden cases against
# both), the .deb installed with dpkg and the example built against it,
# the container image built and its root run, the GitHub Action's script
# installing from DIST through a file:// URL; and the portable build
# (clang -Wpedantic, POSIX only).
release-check: release
	@sh scripts/release/check-binaries.sh $(DIST)
	@sh scripts/release/deb-check.sh $(DIST) .
	@sh scripts/release/image-check.sh $(DIST)
	@sh scripts/release/action-check.sh $(DIST)
	@sh scripts/release/readme-recipe.sh
	@sh scripts/release/portable.sh
	@echo "release-check: every channel passed"

clean:
	rm -rf $(BUILD) $(TESTBUILD) $(BENCHBUILD) build-static-amd64 \
	  build-static-arm64 build-portable $(DIST)

FORCE:
