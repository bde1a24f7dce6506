-- The editor end of tests/lsp_nvim_keyed.sh (issue 41, point 1 and 5):
-- Neovim 0.7's own LSP client with only terraform.tfvars open of a
-- caf-like root (keyed instances whose argument is each.key, a local
-- child directory missing, a registry child not installed): what the
-- user sees on the tfvars (the instances' failure folded into one, the
-- modules not checked as check's verdict says them), on main.tf that is
-- not open (the failure at its module argument, the modules' warnings at
-- their blocks), and hover led by the failure.
--
-- Environment: TFR_TOOL, TFR_MODULE, TFR_RESULT.
local tool = os.getenv('TFR_TOOL')
local module = os.getenv('TFR_MODULE')
local t = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*/)') ..
                 'lsp_nvim_common.lua')
local check, wait_for, has = t.check, t.wait_for, t.has

local function run()
  vim.cmd('edit ' .. vim.fn.fnameescape(module .. '/terraform.tfvars'))
  local bufnr = vim.api.nvim_get_current_buf()
  local id = t.start(tool, module, {})
  check('the client starts the server', id ~= nil)
  if not id then return end
  vim.lsp.buf_attach_client(bufnr, id)
  local main = vim.uri_to_bufnr(vim.uri_from_fname(module .. '/main.tf'))
  -- main.tf is not open: its diagnostics arrive all the same
  wait_for(function()
    return #vim.diagnostic.get(bufnr) >= 2 and #vim.diagnostic.get(main) >= 3
  end)
  local folded, verdict
  for _, g in ipairs(vim.diagnostic.get(bufnr)) do
    if has(g.message, '(in 2 instances of module.keyed)') then folded = g end
    if has(g.message, '2 modules not checked:') then verdict = g end
  end
  check('tfvars: the keyed instances\' failure folded into one error, ' ..
        'each instance with its value',
        folded and folded.severity == vim.diagnostic.severity.ERROR and
        has(folded.message, 'The scope must start with /providers/.') and
        has(folded.message, 'module.keyed["/groups/beta"]: var.scope_id ' ..
                            'is "/groups/beta"'),
        vim.inspect(vim.diagnostic.get(bufnr)))
  local rel = folded and folded.user_data and folded.user_data.lsp and
              folded.user_data.lsp.relatedInformation or {}
  check('tfvars: the folded failure\'s related places reach Neovim: the ' ..
        'module argument and the rule',
        #rel == 2 and rel[1].location.uri:match('/main%.tf$') and
        rel[1].location.range.start.line == 8 and
        rel[2].location.uri:match('/modules/scope/variables%.tf$'),
        vim.inspect(folded and folded.user_data))
  check('tfvars: the modules not checked on its first line, as check ' ..
        'says them',
        verdict and verdict.lnum == 0 and
        has(verdict.message, '  module.gone: directory modules/missing ' ..
                             'not found') and
        has(verdict.message, '  module.remote: not installed: run ' ..
                             '"terraform init"'),
        vim.inspect(vim.diagnostic.get(bufnr)))
  local at = {}
  for _, g in ipairs(vim.diagnostic.get(main)) do
    at[g.lnum] = (at[g.lnum] or '') .. g.message
  end
  check('main.tf, not open: the failure at its module argument ' ..
        '(scope_id = each.key, line 9)',
        has(at[8], 'The scope must start with /providers/.'),
        vim.inspect(at))
  check('main.tf, not open: module.gone and module.remote not installed ' ..
        'at their blocks',
        has(at[12], 'Module not installed') and
        has(at[16], 'Module not installed'), vim.inspect(at))
  local res = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = 0, character = 2 } }, t.WAIT) or {}
  local r = res[id] and res[id].result
  local text = r and r.contents and r.contents.value or ''
  check('hover on scopes: led by the child rule that fails, then the value',
        text:find('^%*%*var%.scopes%*%*: `map%(string%)`\n\nFails in the ' ..
                  'modules it reaches:\n%- `module%.keyed%.var%.scope_id` ' ..
                  'rule 1 failed in 2 of 2 instances') ~= nil and
        text:find('Fails', 1, true) < text:find('Value (from', 1, true),
        text)
  t.stop(id)
end

t.main(run)
