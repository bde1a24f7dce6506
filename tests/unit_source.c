/*
** Unit tests of module source normalisation (src/module/source.c): each
** address and the text Terraform's ParseModuleSource(...).String() makes
** of it.  The cases are those of hashicorp/terraform 883c7221ee2e
** internal/getmodules/moduleaddrs/source_parsing_test.go:22-330 (the
** package and subdirectory joined as module_source.go:147-158 does),
** detect_git_test.go:14-97 and detect_s3_test.go:14-73, and
** terraform-svchost's svchost_test.go for hosts; NULL where they expect
** an error.
*/
#include <stdbool.h>
#include <string.h>

#include "unit.h"

#include "base/arena_int.h"
#include "module/source.h"

struct want {
  const char *in, *out;
};

static void check(const struct want *w, size_t n, const char *host,
                  bool registry_only) {
  tfr_arena *a = tfr_arena_new();
  for (size_t i = 0; i < n; i++) {
    const char *got = source_normal(a, w[i].in, host, registry_only, NULL);
    if (!w[i].out && got)
      fail_msg("%s: want an error, got %s", w[i].in, got);
    if (w[i].out && (!got || strcmp(got, w[i].out)))
      fail_msg("%s: want %s, got %s", w[i].in, w[i].out,
               got ? got : "an error");
  }
  tfr_arena_free(a);
}

#define CHECK(w, host, reg) check(w, sizeof w / sizeof *w, host, reg)

static void local_paths_are_cleaned(void **state) {
  (void)state;
  static const struct want w[] = {
      {"./child", "./child"},
      {"./nope/../child", "./child"},
      {"../sibling", "../sibling"},
      {"./nope/../../sibling", "../sibling"},
      {".\\child", "./child"},
      {".\\nope\\..\\child", "./child"},
      {"..\\sibling", "../sibling"},
      {".\\nope\\..\\..\\sibling", "../sibling"},
      {"./nope\\nope/why\\./please\\don't", "./nope/nope/why/please/don't"},
      {"./modules//x/", "./modules/x"},
  };
  CHECK(w, SOURCE_TERRAFORM_REGISTRY, false);
}

static void registry_addresses_get_their_host(void **state) {
  (void)state;
  static const struct want w[] = {
      {"hashicorp/subnets/cidr",
       "registry.terraform.io/hashicorp/subnets/cidr"},
      {"hashicorp/subnets/cidr//examples/foo",
       "registry.terraform.io/hashicorp/subnets/cidr//examples/foo"},
      {"hashicorp/subnets/cidr//examples/./foo/",
       "registry.terraform.io/hashicorp/subnets/cidr//examples/foo"},
      {"hashicorp/subnets/cidr//../nope", NULL},
      {"example.com/awesomecorp/network/happycloud",
       "example.com/awesomecorp/network/happycloud"},
      {"example.com/awesomecorp/network/happycloud//examples/foo",
       "example.com/awesomecorp/network/happycloud//examples/foo"},
      /* svchost: lowercased, the default port dropped */
      {"Example.COM:443/awesomecorp/network/happycloud",
       "example.com/awesomecorp/network/happycloud"},
      {"example.com:8443/awesomecorp/network/happycloud",
       "example.com:8443/awesomecorp/network/happycloud"},
      {"registry.terraform.io/terraform-aws-modules/iam/aws//modules/role",
       "registry.terraform.io/terraform-aws-modules/iam/aws//modules/role"},
      {"app.terraform.io/acme/vpc/aws", "app.terraform.io/acme/vpc/aws"},
  };
  CHECK(w, SOURCE_TERRAFORM_REGISTRY, false);
  static const struct want tofu[] = {
      {"hashicorp/consul/aws", "registry.opentofu.org/hashicorp/consul/aws"},
      {"terraform-aws-modules/iam/aws//modules/role",
       "registry.opentofu.org/terraform-aws-modules/iam/aws//modules/role"},
      {"registry.terraform.io/hashicorp/consul/aws",
       "registry.terraform.io/hashicorp/consul/aws"},
  };
  CHECK(tofu, SOURCE_OPENTOFU_REGISTRY, false);
}

/* module.go: what is not a registry address falls through to go-getter
** (ParseModuleSource), or is an error with `version` given
** (ParseModuleSourceRegistry). */
static void registry_only_with_a_version(void **state) {
  (void)state;
  static const struct want w[] = {
      {"hashicorp/consul/aws", "registry.terraform.io/hashicorp/consul/aws"},
      {"github.com/hashicorp/example", NULL},
      {"github.com/a/b/c", NULL}, /* github.com is reserved */
      {"example.com/a/b/c/d", NULL},
      {"hashicorp/consul/aws?ref=v1", NULL},
      {"./local", NULL},
      {"-bad/name/aws", NULL},
      {"ns/name/AWS", NULL},
      {"localhost/ns/name/aws", NULL}, /* a host has a dot */
  };
  CHECK(w, SOURCE_TERRAFORM_REGISTRY, true);
}

static void git_addresses_as_go_getter_detects_them(void **state) {
  (void)state;
  static const struct want w[] = {
      {"github.com/hashicorp/terraform-cidr-subnets",
       "git::https://github.com/hashicorp/terraform-cidr-subnets.git"},
      {"github.com/hashicorp/terraform-cidr-subnets//example/foo",
       "git::https://github.com/hashicorp/terraform-cidr-subnets.git//"
       "example/foo"},
      {"github.com/org/repo//sub?ref=v1",
       "git::https://github.com/org/repo.git//sub?ref=v1"},
      {"github.com/hashicorp/foo/bar",
       "git::https://github.com/hashicorp/foo.git//bar"},
      {"github.com/hashicorp/foo.git?foo=bar/baz",
       "git::https://github.com/hashicorp/foo.git?foo=bar/baz"},
      {"github.com/hashicorp", NULL},
      {"git://example.com/code/baz.git", "git://example.com/code/baz.git"},
      {"git://example.com/code/baz.git//bleep/bloop",
       "git://example.com/code/baz.git//bleep/bloop"},
      {"git::https://example.com/code/baz.git",
       "git::https://example.com/code/baz.git"},
      {"git::https://example.com/code/baz.git//bleep/bloop?otherthing=blah",
       "git::https://example.com/code/baz.git//bleep/bloop?otherthing=blah"},
      {"git::ssh://git@example.com/code/baz.git//bleep/bloop",
       "git::ssh://git@example.com/code/baz.git//bleep/bloop"},
      {"git::git@example.com:code/baz.git",
       "git::ssh://git@example.com/code/baz.git"},
      {"git::git@example.com:code/baz.git//bleep/bloop",
       "git::ssh://git@example.com/code/baz.git//bleep/bloop"},
      {"git@github.com:hashicorp/foo.git",
       "git::ssh://git@github.com/hashicorp/foo.git"},
      {"git@github.com:org/project.git?ref=test-branch",
       "git::ssh://git@github.com/org/project.git?ref=test-branch"},
      {"git@github.xyz.com:org/project.git//module/a?ref=test-branch",
       "git::ssh://git@github.xyz.com/org/project.git//module/a?ref="
       "test-branch"},
      /* url.Values.Encode: keys sorted, values escaped */
      {"git@github.com:org/p.git?ref=feature/x&depth=1",
       "git::ssh://git@github.com/org/p.git?depth=1&ref=feature%2Fx"},
      {"git@github.com:org/p.git?ref=%zz", NULL},
      {"bitbucket.org/hashicorp/tf-test-git",
       "git::https://bitbucket.org/hashicorp/tf-test-git.git"},
      {"bitbucket.org/hashicorp/tf-test-git.git",
       "git::https://bitbucket.org/hashicorp/tf-test-git.git"},
  };
  CHECK(w, SOURCE_TERRAFORM_REGISTRY, false);
}

static void other_remote_addresses(void **state) {
  (void)state;
  static const struct want w[] = {
      {"www.googleapis.com/storage/v1/BUCKET_NAME/PATH_TO_MODULE",
       "gcs::https://www.googleapis.com/storage/v1/BUCKET_NAME/PATH_TO_MODULE"},
      {"gcs::https://www.googleapis.com/storage/v1/BUCKET_NAME/PATH/TO/"
       "module.zip",
       "gcs::https://www.googleapis.com/storage/v1/BUCKET_NAME/PATH/TO/"
       "module.zip"},
      {"s3-eu-west-1.amazonaws.com/examplecorp-terraform-modules/vpc.zip",
       "s3::https://s3-eu-west-1.amazonaws.com/examplecorp-terraform-modules/"
       "vpc.zip"},
      {"bucket.s3.amazonaws.com/foo/bar.baz",
       "s3::https://s3.amazonaws.com/bucket/foo/bar.baz"},
      {"bucket.s3-eu-west-1.amazonaws.com/foo",
       "s3::https://s3-eu-west-1.amazonaws.com/bucket/foo"},
      {"bucket.s3.eu-west-1.amazonaws.com/foo/bar.baz",
       "s3::https://s3.eu-west-1.amazonaws.com/bucket/foo/bar.baz"},
      {"s3-eu-west-1.amazonaws.com/bucket/foo/bar.baz?version=1234",
       "s3::https://s3-eu-west-1.amazonaws.com/bucket/foo/"
       "bar.baz?version=1234"},
      {"http://example.com/module", "http://example.com/module"},
      {"https://example.com/module?archive=tar&checksum=blah",
       "https://example.com/module?archive=tar&checksum=blah"},
      {"https://example.com/x.zip//mod?archive=zip",
       "https://example.com/x.zip//mod?archive=zip"},
      {"/tmp/foo/example", "file:///tmp/foo/example"},
      {"/tmp/foo//example", "file:///tmp/foo//example"},
      {"/tmp/foo//example/../../invalid", NULL},
      {"boop/bloop", NULL},
      {"modules/vpc", NULL},
      {"dfgdfgsd:dgfhdfghdfghdfg/dfghdfghdfg",
       "dfgdfgsd:dgfhdfghdfghdfg/dfghdfghdfg"},
  };
  CHECK(w, SOURCE_TERRAFORM_REGISTRY, false);
}

/* The errors' texts: what Terraform puts after "Failed to parse module
** source address: " (node_module_install.go:298-326). */
static void errors_have_go_texts(void **state) {
  (void)state;
  static const struct {
    const char *in;
    bool reg;
    const char *text, *relative;
  } w[] = {
      {"modules/vpc", false,
       "Terraform cannot detect a supported external module source type for "
       "modules/vpc",
       "modules/vpc"},
      {"hashicorp/subnets/cidr//../nope", true,
       "subdirectory path \"../nope\" leads outside of the module package",
       NULL},
      {"/tmp/foo//example/../../invalid", false,
       "subdirectory path \"../invalid\" leads outside of the module package",
       NULL},
      {"hashicorp/consul", true,
       "a module registry source address must have either three or four "
       "slash-separated components",
       NULL},
      {"github.com/hashicorp/consul/aws", true,
       "can't use \"github.com\" as a module registry host, because it's "
       "reserved for installing directly from version control repositories",
       NULL},
      {"example.com/-x/consul/aws", true,
       "invalid namespace \"-x\": must be between one and 64 characters, "
       "including ASCII letters, digits, dashes, and underscores, where "
       "dashes and underscores may not be the prefix or suffix",
       NULL},
      {"hashicorp/consul/aws?ref=v1", true,
       "module registry addresses may not include a query string portion",
       NULL},
      {"hashicorp/consul/AWS", true,
       "invalid target system \"AWS\": must be between one and 64 ASCII "
       "letters or digits",
       NULL},
      {"localhost/a/b/c", true,
       "invalid module registry hostname: must contain at least one dot", NULL},
      {"./x", true,
       "can't use local directory \"./x\" as a module registry address", NULL},
      {"github.com/hashicorp", false,
       "GitHub URLs should be github.com/username/repo", NULL},
      {"git@github.com:org/p.git?ref=%zz", false,
       "error parsing Git SSH URL: invalid URL escape \"%zz\"", NULL},
      {"git@github.com:org/p.git?a=1;b=2", false,
       "error parsing Git SSH URL: invalid semicolon separator in query", NULL},
      {"github.com/org/re%zzpo", false,
       "error parsing GitHub URL: parse \"https://github.com/org/re%zzpo\": "
       "invalid URL escape \"%zz\"",
       NULL},
      {"a.b.c.d.e.amazonaws.com/x", false, "URL is not a valid S3 URL", NULL},
      {"www.googleapis.com/storage/v1", false, "URL is not a valid GCS URL",
       NULL},
  };
  tfr_arena *a = tfr_arena_new();
  for (size_t i = 0; i < sizeof w / sizeof *w; i++) {
    struct source_error e;
    const char *got =
        source_normal(a, w[i].in, SOURCE_TERRAFORM_REGISTRY, w[i].reg, &e);
    if (got)
      fail_msg("%s: want an error, got %s", w[i].in, got);
    if (!e.text || strcmp(e.text, w[i].text))
      fail_msg("%s: want %s, got %s", w[i].in, w[i].text,
               e.text ? e.text : "(none)");
    if ((w[i].relative != NULL) != (e.relative != NULL) ||
        (e.relative && strcmp(e.relative, w[i].relative)))
      fail_msg("%s: the relative path is %s", w[i].in,
               e.relative ? e.relative : "(none)");
  }
  tfr_arena_free(a);
}

/* Odd input parses or fails, never crashes (run under ASan by make test). */
static void odd_input_is_safe(void **state) {
  (void)state;
  static const char *const odd[] = {
      "",
      "/",
      "//",
      "?",
      "::",
      "git::",
      "a::",
      "::x",
      "github.com/",
      "github.com//",
      "github.com/a/",
      "git@",
      "git@:",
      "git@h:",
      "git@h:/",
      "git@h://",
      "git@h:p?",
      "git@h:p?&&=",
      "git@h:p?%",
      "git@h:p?a=%4",
      "bitbucket.org/",
      "bitbucket.org/%",
      ".amazonaws.com/",
      "a.amazonaws.com/",
      "googleapis.com/",
      "x//",
      "x//?",
      "a/b/c//",
      "a/b/c//..",
      "a/b/c//../..",
      "h.io:/a/b/c",
      "h.io:99999/a/b/c",
      "h.io:x/a/b/c",
      ".io/a/b/c",
      "-h.io/a/b/c",
      "h..io/a/b/c",
      "xn--h.io/a/b/c",
      "h_i.io/a/b/c",
      "a/b/c/d/e/f/g",
      "..",
      ".",
      "./",
      "../",
      ".\\",
      "0x::y",
      "s3::",
      "https://",
      "https://h//",
      "https://h//..",
      "file:///x//../..",
  };
  tfr_arena *a = tfr_arena_new();
  for (size_t i = 0; i < sizeof odd / sizeof *odd; i++)
    for (int reg = 0; reg < 2; reg++) {
      struct source_error e;
      const char *got =
          source_normal(a, odd[i], SOURCE_TERRAFORM_REGISTRY, reg, &e);
      assert_true(got != NULL || e.text != NULL);
    }
  tfr_arena_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(local_paths_are_cleaned),
      cmocka_unit_test(registry_addresses_get_their_host),
      cmocka_unit_test(registry_only_with_a_version),
      cmocka_unit_test(git_addresses_as_go_getter_detects_them),
      cmocka_unit_test(other_remote_addresses),
      cmocka_unit_test(errors_have_go_texts),
      cmocka_unit_test(odd_input_is_safe),
  };
  RUN_UNIT_TESTS(tests);
}
