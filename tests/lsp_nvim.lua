-- The editor end of tests/lsp_nvim.sh: Neovim (0.7 and later, headless)
-- starts `tfresolve lsp` with its own LSP client, opens terraform.tfvars
-- of a copy of fixtures/lsp-editor and checks what an editor shows:
-- the diagnostic of the one error, hover, completion, go to definition,
-- a quick fix, and diagnostics that follow an edit.  One PASS or FAIL line
-- per check goes to the result file; the script always quits.
--
-- Environment: TFR_TOOL (the tfresolve binary), TFR_MODULE (the module
-- copy), TFR_RESULT (the result file).
local tool = os.getenv('TFR_TOOL')
local module = os.getenv('TFR_MODULE')
-- the shared part: result lines, the server's death, a bounded wait
local t = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*/)') ..
                 'lsp_nvim_common.lua')
local WAIT, check, wait_for, has = t.WAIT, t.check, t.wait_for, t.has

-- The result of a request to our client (nil and a reason otherwise).
local function request(bufnr, client_id, method, params)
  if t.dead then
    return nil, 'not asked: ' .. t.dead
  end
  local res, err = vim.lsp.buf_request_sync(bufnr, method, params, WAIT)
  if not res then
    t.dead = 'no answer to ' .. method .. ': ' .. tostring(err)
    return nil, t.dead
  end
  local r = res[client_id]
  if not r then
    return nil, 'no answer from the server'
  end
  if r.err or r.error then
    return nil, vim.inspect(r.err or r.error)
  end
  return r.result
end


-- The diagnostics of a line as LSP has them (for a code action's context).
local function lsp_diagnostics(bufnr, lnum)
  local list = {}
  for _, g in ipairs(vim.diagnostic.get(bufnr, { lnum = lnum })) do
    list[#list + 1] = {
      range = { start = { line = g.lnum, character = g.col },
                ['end'] = { line = g.end_lnum, character = g.end_col } },
      severity = g.severity, message = g.message, source = g.source,
    }
  end
  return list
end

local function run()
  local tfvars = module .. '/terraform.tfvars'
  vim.cmd('edit ' .. vim.fn.fnameescape(tfvars))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'terraform-vars'
  local uri = vim.uri_from_bufnr(bufnr)

  local client_id = t.start(tool, module,
                            { init_options = { engine = 'terraform' } })
  check('the client starts the server', client_id ~= nil)
  if not client_id then return end
  check('the client attaches to the tfvars buffer',
        vim.lsp.buf_attach_client(bufnr, client_id))

  -- the one error: the region fails its validation rule, at line 1
  local diags = {}
  wait_for(function()
    diags = vim.diagnostic.get(bufnr)
    return #diags > 0
  end)
  check('diagnostics arrive for the opened file', #diags > 0,
        t.dead or ('none within ' .. WAIT .. ' ms'))
  local d = diags[1] or {}
  check('exactly one diagnostic', #diags == 1, vim.inspect(diags))
  check('its message is the rule\'s error_message',
        has(d.message, 'Invalid value for variable') and
        has(d.message, 'The region must look like "eu-west-1".'),
        vim.inspect(d.message))
  check('it is an error on line 1, at the value',
        d.lnum == 0 and d.col == 9 and d.severity == vim.diagnostic.severity.ERROR,
        vim.inspect({ lnum = d.lnum, col = d.col, severity = d.severity }))

  -- hover on a key: its type, description, and where its value comes from
  local h, err = request(bufnr, client_id, 'textDocument/hover',
    { textDocument = { uri = uri }, position = { line = 2, character = 3 } })
  local text = h and h.contents and (h.contents.value or h.contents) or ''
  if type(text) ~= 'string' then text = vim.inspect(text) end
  check('hover on "network" gives its type',
        has(text, '**var.network**') and text:find('cidr%s*=%s*string') and
        text:find('name%s*=%s*optional%(string'), -- folded (issue 28)
        err or text)
  check('hover is markdown, as Neovim asks (contentFormat)',
        h and h.contents and h.contents.kind == 'markdown', err or vim.inspect(h))
  check('hover on "network" gives its description',
        has(text, 'The VPC: its CIDR block, and optionally its name and flow logs.'),
        err or text)
  check('hover on "network" says where the value comes from',
        has(text, 'terraform.tfvars:3'), err or text)
  h, err = request(bufnr, client_id, 'textDocument/hover',
    { textDocument = { uri = uri }, position = { line = 7, character = 2 } })
  text = h and h.contents and h.contents.value or ''
  check('hover on a sensitive variable does not show its value',
        has(text, 'sensitive') and not has(text, 'hunter2'), err or text)

  -- completion on the empty last line: the variables not set yet
  local c
  c, err = request(bufnr, client_id, 'textDocument/completion',
    { textDocument = { uri = uri }, position = { line = 8, character = 0 } })
  local labels = {}
  for _, it in ipairs(c and (c.items or c) or {}) do
    labels[it.label] = it
  end
  local names = vim.inspect(vim.tbl_keys(labels))
  check('completion at an empty line offers "instance_count"',
        labels.instance_count ~= nil, err or names)
  check('its detail is the type, its documentation the description',
        labels.instance_count and labels.instance_count.detail == 'number' and
        has(labels.instance_count.documentation, 'How many application instances'),
        vim.inspect(labels.instance_count))
  check('completion does not offer what the file sets already',
        c and labels.region == nil and labels.network == nil, err or names)

  -- completion inside the object (before a key): its attributes
  c, err = request(bufnr, client_id, 'textDocument/completion',
    { textDocument = { uri = uri }, position = { line = 3, character = 0 } })
  labels = {}
  for _, it in ipairs(c and (c.items or c) or {}) do
    labels[it.label] = true
  end
  check('completion inside the object offers its attribute "flow_logs"',
        labels.flow_logs ~= nil, err or vim.inspect(vim.tbl_keys(labels)))

  -- go to definition: the variable block in main.tf
  local loc
  loc, err = request(bufnr, client_id, 'textDocument/definition',
    { textDocument = { uri = uri }, position = { line = 0, character = 1 } })
  if loc and loc[1] then loc = loc[1] end
  check('definition of "region" is its block in main.tf',
        loc and loc.uri and loc.uri:match('/main%.tf$') and
        loc.range.start.line == 3, err or vim.inspect(loc))

  -- typing: fix the region, and the diagnostic goes away
  vim.api.nvim_buf_set_text(bufnr, 0, 10, 0, 22, { 'eu-west-1' })
  local cleared = wait_for(function()
    return #vim.diagnostic.get(bufnr) == 0
  end)
  check('an edit that fixes the value clears the diagnostic', cleared,
        vim.inspect(vim.diagnostic.get(bufnr)))

  -- a misspelt name: an error with "did you mean" and its quick fix
  vim.api.nvim_buf_set_lines(bufnr, 8, 9, false, { 'instance_cont = 3' })
  wait_for(function()
    diags = vim.diagnostic.get(bufnr)
    return #diags > 0
  end)
  d = diags[1] or {}
  check('a misspelt name is flagged at its line, with "did you mean"',
        d.lnum == 8 and has(d.message, 'instance_count'), vim.inspect(diags))
  local actions
  actions, err = request(bufnr, client_id, 'textDocument/codeAction', {
    textDocument = { uri = uri },
    range = { start = { line = 8, character = 0 }, ['end'] = { line = 8, character = 0 } },
    context = { diagnostics = lsp_diagnostics(bufnr, 8) },
  })
  local a = actions and actions[1] or {}
  local edit = a.edit and a.edit.changes and a.edit.changes[uri]
  check('the quick fix replaces it with "instance_count"',
        edit and edit[1] and edit[1].newText == 'instance_count',
        err or vim.inspect(actions))
  if edit then
    vim.lsp.util.apply_text_edits(edit, bufnr, 'utf-16')
  end
  local fixed = edit and wait_for(function()
    return #vim.diagnostic.get(bufnr) == 0
  end)
  check('after the quick fix the file has no diagnostic',
        fixed and vim.api.nvim_buf_get_lines(bufnr, 8, 9, false)[1] ==
        'instance_count = 3',
        vim.inspect(vim.api.nvim_buf_get_lines(bufnr, 8, 9, false)) ..
        vim.inspect(vim.diagnostic.get(bufnr)))

  -- shutdown and exit
  t.stop(client_id)
end

t.main(run)
