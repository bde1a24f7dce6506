// Command extract lists the diagnostics that Go sources can give, as
// regular expressions of their summary and detail, for
// tests/terraform_texts.tsv (scripts/terraform_texts.sh runs it; see there).
//
//	go run extract.go [-mode=diags|errors|funcerr] -label=LABEL DIR|FILE...
//
// Every non-test .go file under each DIR is parsed (go/parser) and each
// diagnostic it builds is printed as one line
//
//	SUMMARY-REGEX <TAB> DETAIL-REGEX <TAB> LABEL/PATH:LINE
//
// mode=diags (default): hcl.Diagnostic{Summary: ..., Detail: ...}
// literals and tfdiags.Sourceless / SourcelessWithExtra /
// WholeContainingBody / AttributeValue / SimpleWarning calls.
// mode=errors: every fmt.Errorf / errors.New too, as a diagnostic whose
// summary is the error's text and whose detail is empty (what
// tfdiags.Diagnostics.Append makes of a Go error: internal/dag's "Cycle:").
// mode=funcerr: the errors that functions return (fmt.Errorf, errors.New,
// function.NewArgErrorf, path.NewErrorf...), as lines whose summary is
// "@funcerr": the texts that hclsyntax's "Call to function %q failed: %s."
// and "Invalid value for %q parameter: %s." put in place of their %s
// (such a %s of an identifier named err becomes {@funcerr} in the detail).
//
// An expression becomes a regular expression (Python's re syntax) this way:
// a string literal is escaped; a + b is the concatenation; fmt.Sprintf and
// fmt.Errorf translate their format string: %q is a Go-quoted string, %d
// digits, any other verb a lazy wildcard .*? (an argument that is a string
// literal is put in instead); a package-level string constant is its
// text; a local variable is the alternation of what the function assigns
// to it; anything else is .*?.  A diagnostic whose summary is nothing but
// wildcards is left out (counted on stderr).
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

const wild = ".*?"

var (
	mode    = flag.String("mode", "diags", "diags, errors or funcerr")
	label   = flag.String("label", "", "prefix of the source column")
	funcerr = map[string]bool{
		"Error in function call":    true,
		"Invalid function argument": true,
	}
	skipped int
)

// A file being read: its package's string constants, for identifiers.
type file struct {
	fset   *token.FileSet
	consts map[string]string
	rel    string
}

func main() {
	flag.Parse()
	out := map[string]bool{}
	for _, root := range flag.Args() {
		var files []string
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") &&
				!strings.HasSuffix(p, "_test.go") {
				files = append(files, p)
			}
			return nil
		})
		// the constants of each directory (a package) first
		consts := map[string]map[string]string{}
		parsed := map[string]*ast.File{}
		fset := token.NewFileSet()
		for _, p := range files {
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				continue
			}
			parsed[p] = f
			dir := filepath.Dir(p)
			if consts[dir] == nil {
				consts[dir] = map[string]string{}
			}
			collectConsts(f, consts[dir])
		}
		// the source column: the path as given when it is relative (run
		// from the repository's top), else below the root given
		base := "."
		if filepath.IsAbs(root) {
			base = root
			if st, err := os.Stat(root); err == nil && !st.IsDir() {
				base = filepath.Dir(root)
			}
		}
		for _, p := range files {
			if parsed[p] == nil {
				continue
			}
			rel, _ := filepath.Rel(base, p)
			if rel == "." {
				rel = filepath.Base(p)
			}
			rel = filepath.ToSlash(filepath.Join(*label, rel))
			fl := &file{fset, consts[filepath.Dir(p)], rel}
			for _, line := range fl.extract(parsed[p]) {
				out[line] = true
			}
		}
	}
	lines := make([]string, 0, len(out))
	for l := range out {
		lines = append(lines, l)
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Println(l)
	}
	fmt.Fprintf(os.Stderr, "%s: %d lines, %d left out (summary not known)\n",
		*label, len(lines), skipped)
}

// collectConsts records the package-level string constants and variables
// initialised with a string.
func collectConsts(f *ast.File, m map[string]string) {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range g.Specs {
			v, ok := s.(*ast.ValueSpec)
			if !ok || len(v.Names) != len(v.Values) {
				continue
			}
			for i, n := range v.Names {
				if lit, ok := v.Values[i].(*ast.BasicLit); ok &&
					lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						m[n.Name] = s
					}
				}
			}
		}
	}
}

// extract walks one file, function by function (for local variables).
func (fl *file) extract(f *ast.File) []string {
	var lines []string
	for _, d := range f.Decls {
		fn, _ := d.(*ast.FuncDecl)
		var body ast.Node = d
		ast.Inspect(body, func(n ast.Node) bool {
			for _, l := range fl.node(n, fn) {
				lines = append(lines, l)
			}
			return true
		})
	}
	return lines
}

func (fl *file) line(n ast.Node, summary, detail string) string {
	pos := fl.fset.Position(n.Pos())
	return fmt.Sprintf("%s\t%s\t%s:%d", summary, detail, fl.rel, pos.Line)
}

// allWild: a pattern with too little text of its own to tell one message
// from another (fewer than three letters besides its wildcards).
func allWild(p string) bool {
	rest := strings.NewReplacer(wild, "", `(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')`, "",
		"{@funcerr}", "").Replace(p)
	letters := 0
	for _, r := range rest {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			letters++
		}
	}
	return letters < 3
}

// node gives the lines of one AST node (usually none).
func (fl *file) node(n ast.Node, fn *ast.FuncDecl) []string {
	switch x := n.(type) {
	case *ast.ReturnStmt:
		// the literal texts of a function that makes error messages
		// (cty's convert.MismatchMessage)
		if *mode == "funcerr" && fn != nil &&
			strings.Contains(strings.ToLower(fn.Name.Name), "message") &&
			len(x.Results) == 1 {
			if l, ok := x.Results[0].(*ast.BasicLit); ok &&
				l.Kind == token.STRING {
				return []string{fl.line(x, "@funcerr", fl.pattern(l, fn, "", 0))}
			}
		}
	case *ast.CompositeLit:
		if *mode == "funcerr" || !isDiagType(x.Type) {
			return nil
		}
		var sum, det ast.Expr
		for _, e := range x.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if k, ok := kv.Key.(*ast.Ident); ok {
				switch k.Name {
				case "Summary":
					sum = kv.Value
				case "Detail":
					det = kv.Value
				}
			}
		}
		if sum == nil {
			return nil
		}
		return fl.diag(x, fn, sum, det)
	case *ast.CallExpr:
		name := callName(x)
		switch *mode {
		case "funcerr":
			if p := fl.errorCall(x, fn); p != "" && !allWild(p) {
				return []string{fl.line(x, "@funcerr", p)}
			}
			// go-cty-yaml's problems: yaml_parser_set_parser_error(parser,
			// "did not find expected key", mark)
			var lines []string
			if strings.HasPrefix(name, "yaml_") &&
				strings.Contains(name, "_error") {
				for _, a := range x.Args {
					if l, ok := a.(*ast.BasicLit); ok && l.Kind == token.STRING &&
						!allWild(fl.pattern(l, fn, "", 0)) {
						lines = append(lines, fl.line(x, "@funcerr",
							fl.pattern(l, fn, "", 0)))
					}
				}
			}
			return lines
		case "errors":
			if p := fl.errorCall(x, fn); p != "" && !allWild(p) {
				return []string{fl.line(x, p, "")}
			}
		}
		switch name {
		case "tfdiags.Sourceless", "tfdiags.SourcelessWithExtra",
			"tfdiags.WholeContainingBody", "tfdiags.AttributeValue":
			if len(x.Args) >= 3 {
				return fl.diag(x, fn, x.Args[1], x.Args[2])
			}
		case "tfdiags.SimpleWarning":
			if len(x.Args) == 1 {
				return fl.diag(x, fn, x.Args[0], nil)
			}
		}
	}
	return nil
}

// diag gives the line of a diagnostic with these summary and detail
// expressions (detail nil: empty).
func (fl *file) diag(n ast.Node, fn *ast.FuncDecl, sum, det ast.Expr) []string {
	s := fl.pattern(sum, fn, "", 0)
	if allWild(s) {
		skipped++
		return nil
	}
	d := ""
	if det != nil {
		d = fl.pattern(det, fn, unescape(s), 0)
	}
	return []string{fl.line(n, s, d)}
}

// unescape gives back the text of a pattern that is a plain literal.
func unescape(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			i++
			switch p[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(p[i])
			}
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// errorCall gives the pattern of an error-making call, or "".
func (fl *file) errorCall(x *ast.CallExpr, fn *ast.FuncDecl) string {
	name := callName(x)
	switch {
	case name == "fmt.Errorf" || name == "errors.New":
		return fl.pattern(x, fn, "", 0)
	case name == "fmt.Sprintf" && *mode == "funcerr":
		// texts made for errors (cty's convert.MismatchMessage, the
		// Error methods, Terraform's errStr in crypto.go)
		return fl.pattern(x, fn, "", 0)
	case strings.HasSuffix(name, "NewArgErrorf") ||
		name == "parseEventErrorf": // go-cty-yaml's
		if len(x.Args) >= 2 {
			return fl.format(x.Args[1], x.Args[2:], fn, "", 0)
		}
	case strings.HasSuffix(name, ".NewErrorf"): // cty.Path's
		if len(x.Args) >= 1 {
			return fl.format(x.Args[0], x.Args[1:], fn, "", 0)
		}
	}
	return ""
}

func callName(x *ast.CallExpr) string {
	switch f := x.Fun.(type) {
	case *ast.SelectorExpr:
		if id, ok := f.X.(*ast.Ident); ok {
			return id.Name + "." + f.Sel.Name
		}
		return "?." + f.Sel.Name
	case *ast.Ident:
		return f.Name
	}
	return ""
}

// isDiagType: hcl.Diagnostic, or a literal whose type is elided (an
// element of hcl.Diagnostics{{...}}; only its Summary key is looked at).
func isDiagType(t ast.Expr) bool {
	switch x := t.(type) {
	case nil:
		return true
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		return ok && id.Name == "hcl" && x.Sel.Name == "Diagnostic"
	case *ast.Ident:
		return x.Name == "Diagnostic"
	}
	return false
}

var reSpecial = regexp.MustCompile(`[\\.^$*+?{}\[\]|()]`)

// quote escapes a literal text for a regular expression.
func quote(s string) string {
	s = reSpecial.ReplaceAllString(s, `\$0`)
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// pattern gives the regular expression of a string expression; summary is
// that of the diagnostic (for {@funcerr}), depth bounds local variables.
func (fl *file) pattern(e ast.Expr, fn *ast.FuncDecl, summary string,
	depth int) string {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind == token.STRING {
			if s, err := strconv.Unquote(x.Value); err == nil {
				return quote(s)
			}
		}
	case *ast.ParenExpr:
		return fl.pattern(x.X, fn, summary, depth)
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			return fl.pattern(x.X, fn, summary, depth) +
				fl.pattern(x.Y, fn, summary, depth)
		}
	case *ast.CallExpr:
		switch callName(x) {
		case "fmt.Sprintf", "fmt.Errorf":
			if len(x.Args) >= 1 {
				return fl.format(x.Args[0], x.Args[1:], fn, summary, depth)
			}
		case "errors.New":
			if len(x.Args) == 1 {
				return fl.pattern(x.Args[0], fn, summary, depth)
			}
		}
	case *ast.Ident:
		if s, ok := fl.consts[x.Name]; ok {
			return quote(s)
		}
		if alts := fl.local(x, fn, summary, depth); alts != "" {
			return alts
		}
	}
	return wild
}

// local gives the alternation of the values a function assigns to a local
// string variable, or "" when one of them is not known or it is appended to.
func (fl *file) local(id *ast.Ident, fn *ast.FuncDecl, summary string,
	depth int) string {
	if fn == nil || fn.Body == nil || depth > 3 {
		return ""
	}
	var alts []string
	ok := true
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch a := n.(type) {
		case *ast.AssignStmt:
			for i, l := range a.Lhs {
				lid, isID := l.(*ast.Ident)
				if !isID || lid.Name != id.Name {
					continue
				}
				if a.Tok != token.ASSIGN && a.Tok != token.DEFINE ||
					len(a.Rhs) != len(a.Lhs) {
					ok = false
					continue
				}
				p := fl.pattern(a.Rhs[i], fn, summary, depth+1)
				if allWild(p) {
					ok = false
				}
				alts = append(alts, p)
			}
		case *ast.ValueSpec:
			for i, n := range a.Names {
				if n.Name == id.Name && i < len(a.Values) {
					alts = append(alts, fl.pattern(a.Values[i], fn, summary,
						depth+1))
				}
			}
		}
		return true
	})
	if !ok || len(alts) == 0 {
		return ""
	}
	if len(alts) == 1 {
		return alts[0]
	}
	sort.Strings(alts)
	uniq := alts[:1]
	for _, a := range alts[1:] {
		if a != uniq[len(uniq)-1] {
			uniq = append(uniq, a)
		}
	}
	if len(uniq) == 1 {
		return uniq[0]
	}
	return "(?:" + strings.Join(uniq, "|") + ")"
}

var verbRE = regexp.MustCompile(`%([-+# 0]*)(?:\[(\d+)\])?(\d+|\*)?(?:\.(\d+|\*)?)?([a-zA-Z%])`)

// format translates a Go format string (a string expression) and its
// arguments.
func (fl *file) format(f ast.Expr, args []ast.Expr, fn *ast.FuncDecl,
	summary string, depth int) string {
	lit, ok := f.(*ast.BasicLit)
	var s string
	if ok && lit.Kind == token.STRING {
		s, _ = strconv.Unquote(lit.Value)
	} else if id, isID := f.(*ast.Ident); isID && fl.consts[id.Name] != "" {
		s = fl.consts[id.Name]
	} else {
		return wild
	}
	var b strings.Builder
	argi := 0
	last := 0
	for _, m := range verbRE.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(quote(s[last:m[0]]))
		last = m[1]
		flags := s[m[2]:m[3]]
		verb := s[m[10]:m[11]]
		if verb == "%" {
			b.WriteString("%")
			continue
		}
		if m[4] >= 0 {
			n, _ := strconv.Atoi(s[m[4]:m[5]])
			argi = n - 1
		}
		if m[6] >= 0 && s[m[6]:m[7]] == "*" {
			argi++
		}
		if m[8] >= 0 && s[m[8]:m[9]] == "*" {
			argi++
		}
		var arg ast.Expr
		if argi >= 0 && argi < len(args) {
			arg = args[argi]
		}
		argi++
		b.WriteString(verbPattern(fl, verb, flags, arg, fn, summary, depth))
	}
	b.WriteString(quote(s[last:]))
	return b.String()
}

func verbPattern(fl *file, verb, flags string, arg ast.Expr,
	fn *ast.FuncDecl, summary string, depth int) string {
	var litArg *string
	if l, ok := arg.(*ast.BasicLit); ok && l.Kind == token.STRING {
		if s, err := strconv.Unquote(l.Value); err == nil {
			litArg = &s
		}
	}
	switch verb {
	case "q":
		if litArg != nil {
			return quote(strconv.Quote(*litArg))
		}
		// a string, or a rune ('x')
		if strings.Contains(flags, "#") {
			return "(?:`[^`]*`|" + `"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')`
		}
		return `(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')`
	case "d":
		return ` *-?[0-9]+`
	case "s", "v":
		if litArg != nil {
			return quote(*litArg)
		}
		if id, ok := arg.(*ast.Ident); ok && id.Name == "err" &&
			funcerr[summary] {
			return "{@funcerr}"
		}
	}
	return wild
}
