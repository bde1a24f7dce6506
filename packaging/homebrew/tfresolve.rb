# Homebrew formula for tfresolve, built from the release's source (the
# tag's archive) with meson.  Untested: no Homebrew where it was written.
# At each release, set url's tag and sha256 (sha256sum of that archive),
# replace OWNER, and put the file in a tap (OWNER/homebrew-tap: Formula/):
#   brew install OWNER/tap/tfresolve
# Check it with: brew install --build-from-source ./tfresolve.rb &&
#   brew test tfresolve && brew audit --strict --new tfresolve
class Tfresolve < Formula
  desc "Evaluate and validate Terraform/OpenTofu input variables offline"
  homepage "https://github.com/OWNER/tfresolve"
  url "https://github.com/OWNER/tfresolve/archive/refs/tags/v0.3.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license "MIT"
  head "https://github.com/OWNER/tfresolve.git", branch: "main"

  # the grammars use %define parse.error custom: Bison 3.6 or later
  # (macOS has 2.3)
  depends_on "bison" => :build
  depends_on "flex" => :build
  depends_on "meson" => :build
  depends_on "ninja" => :build
  depends_on "pkgconf" => :build
  depends_on "gmp"
  depends_on "jansson"
  # meson.build finds these through pkg-config; macOS's own libedit has no
  # libedit.pc and macOS has no libxcrypt (bcrypt)
  depends_on "libedit"
  depends_on "libxcrypt"
  depends_on "libyaml"
  depends_on "mpfr"
  depends_on "openssl@3"
  depends_on "re2"
  depends_on "utf8proc"

  uses_from_macos "zlib"

  def install
    # the test suite needs cmocka and python3: not built
    system "meson", "setup", "build", "-Dtests=disabled", *std_meson_args
    system "meson", "compile", "-C", "build", "--verbose"
    system "meson", "install", "-C", "build"
  end

  test do
    (testpath/"variables.tf").write <<~HCL
      variable "region" {
        type = string
        validation {
          condition     = can(regex("^[a-z]{2}-[a-z]+-[0-9]$", var.region))
          error_message = "The region must look like \\"eu-west-1\\"."
        }
      }
    HCL
    (testpath/"terraform.tfvars").write "region = \"eu-west-1\"\n"
    assert_match "all valid", shell_output("#{bin}/tfresolve check")
    (testpath/"terraform.tfvars").write "region = \"Europe\"\n"
    assert_match "must look like", shell_output("#{bin}/tfresolve check 2>&1", 1)
    assert_match version.to_s, shell_output("#{bin}/tfresolve -version")
  end
end
