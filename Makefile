# The two README commands: `make demo` and `make test`. Both install what is missing first.
.PHONY: setup build demo test bench serve fuzz soak clean install dist dist-check

setup:
	@scripts/setup.sh

# One set of release flags for every binary (scripts/swift-release.sh).
SWIFT_RELEASE = scripts/swift-release.sh

build: setup
	$(SWIFT_RELEASE) --product hlrender

demo: build
	@mkdir -p out
	.build/release/hlrender render --text-file samples/story.txt --width 860 --align center \
	  --size 56 --canvas 1080x1080 --background '#E9446A' --highlight white -o out/demo.png
	@echo "wrote out/demo.png"

# The service binary with build's flags, so hlrender itself is reused, not rebuilt.
serve: build
	$(SWIFT_RELEASE) --product hlrender-serve
	.build/release/hlrender serve --templates examples/templates --assets examples/assets

# make install PREFIX=/usr/local: bin/hlrender, share/hlrender/fonts, the man page and
# completions; SERVICE=1 builds and installs bin/hlrender-serve (`hlrender serve`) too.
PREFIX ?= /usr/local
SERVICE ?= 0
install: build
	@if [ "$(SERVICE)" = 1 ]; then $(SWIFT_RELEASE) --product hlrender-serve; fi
	SERVICE=$(SERVICE) scripts/install.sh $(PREFIX)

# make dist: out/hlrender-VERSION-linux-ARCH.tar.xz (see scripts/dist.sh); make dist-check runs
# it in a clean Debian 12 root (mmdebstrap, chroot: root needed).
dist: build
	$(SWIFT_RELEASE) --product hlrender-serve
	scripts/dist.sh

dist-check: dist
	@scripts/setup.sh mmdebstrap
	scripts/dist-check.sh out/hlrender-$$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/Support/Version.swift)-linux-$$(uname -m).tar.xz

test: setup
	scripts/test.sh

# Every fuzz harness for FUZZ_SECONDS (default 300), two at a time.
fuzz: setup
	scripts/fuzz.sh $(FUZZ_SECONDS)

# Mixed traffic against a release build of the service for SOAK_SECONDS (default 600).
soak: setup
	@scripts/setup.sh wrk
	scripts/soak.sh $(SOAK_SECONDS)

bench: setup
	@scripts/setup.sh pango1.0-tools hyperfine imagemagick libvips-tools time python3-pil wrk bc
	scripts/bench.sh

clean:
	rm -rf .build out
