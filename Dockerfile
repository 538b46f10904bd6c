# hlrender on debian:12-slim, laid out as `make dist` lays out its tarball (bin/, share/):
#   docker build -t hlrender .
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/work" hlrender render --text "Hi" --highlight yellow -o hi.png
#   docker run --rm -p 8080:8080 hlrender serve --host 0.0.0.0 --port 8080
# The build stage is Swift's own Debian 12 image; the run stage holds only the tarball and the
# Debian packages its RUNTIME-PACKAGES names.
FROM swift:6.1-bookworm AS build
WORKDIR /src
COPY . .
RUN scripts/setup.sh --build-only && scripts/swift-release.sh --product hlrender && scripts/swift-release.sh --product hlrender-serve \
    && DIST_DIR=/dist scripts/dist.sh && mkdir /opt/hlrender \
    && tar -xJf /dist/hlrender-*.tar.xz -C /opt/hlrender --strip-components=1

FROM debian:12-slim
COPY --from=build /opt/hlrender /usr/local
RUN apt-get update \
    && apt-get install -y --no-install-recommends $(grep -v '^#' /usr/local/RUNTIME-PACKAGES | tr '\n' ' ') \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --create-home --home-dir /home/hlrender --shell /usr/sbin/nologin hlrender \
    && install -d -o hlrender -g hlrender /work
# Fontconfig's cache and the spool in a folder any user may write (docker run --user gives
# the host's uid, so the bind-mounted /work is writable and no home is needed).
ENV XDG_CACHE_HOME=/tmp/hlrender-cache
WORKDIR /work
USER hlrender
ENTRYPOINT ["hlrender"]
CMD ["--help"]
