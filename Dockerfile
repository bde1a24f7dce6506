# The tfresolve container image: the static release binary and nothing
# else (no shell, no libraries, no /tmp: tfresolve needs none of them).
#
# The build context is not this repository but a directory that
# scripts/release/image-context.sh makes from a release's dist/ (it
# verifies SHA256SUMS): tfresolve-linux-amd64, tfresolve-linux-arm64 and
# LICENSE.  TARGETARCH is set by the builder from --platform, so one
# command builds both architectures:
#
#   sh scripts/release/image-context.sh dist /tmp/ctx
#   docker buildx build -f Dockerfile --platform linux/amd64,linux/arm64 \
#     --build-arg VERSION=0.3.0 -t ghcr.io/OWNER/tfresolve:0.3.0 --push /tmp/ctx
#
# Run it with the module mounted at /src (the working directory):
#
#   docker run --rm -v "$PWD:/src" -w /src ghcr.io/OWNER/tfresolve check -format=sarif
#
# It runs as user 65532 (numeric: scratch has no /etc/passwd), which
# only needs to read the mounted files (check writes to stdout only);
# give `--user "$(id -u):$(id -g)"` for files only their owner can read.
#
# scripts/release/image-check.sh builds this image with buildah and runs
# it, and accepts only FROM scratch, ARG, LABEL, COPY, WORKDIR, USER and
# ENTRYPOINT here.
FROM scratch
ARG TARGETARCH
ARG VERSION=unknown
LABEL org.opencontainers.image.title="tfresolve" \
      org.opencontainers.image.description="Evaluate and validate Terraform/OpenTofu input variables offline" \
      org.opencontainers.image.source="https://github.com/OWNER/tfresolve" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${VERSION}"
COPY LICENSE /usr/share/doc/tfresolve/LICENSE
COPY tfresolve-linux-${TARGETARCH} /tfresolve
WORKDIR /src
USER 65532:65532
ENTRYPOINT ["/tfresolve"]
