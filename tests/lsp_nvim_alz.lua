-- The editor end of tests/lsp_nvim_alz.sh: Neovim (0.7 and later,
-- headless) starts `tfresolve lsp` with its own LSP client on
-- terraform.tfvars of a copy of the ALZ platform landing zone module and
-- takes it through the states an editor creates (issue 28), checking
-- what the user sees (vim.diagnostic.get) at each step.  One PASS or FAIL
-- line per check goes to the result file; the script always quits.
--
-- Environment: TFR_TOOL (the tfresolve binary), TFR_MODULE (the module
-- copy, with terraform.tfvars), TFR_RESULT (the result file).
local tool = os.getenv('TFR_TOOL')
local module = os.getenv('TFR_MODULE')
-- the shared part: result lines, the server's death, a bounded wait
local t = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*/)') ..
                 'lsp_nvim_common.lua')
local check, wait_for, has = t.check, t.wait_for, t.has

local function write(path, text)
  local f = assert(io.open(path, 'w'))
  f:write(text)
  f:close()
end

-- The buffer Neovim keeps a file's diagnostics in (the file not open).
local function buf_of(path)
  return vim.uri_to_bufnr(vim.uri_from_fname(path))
end

-- The diagnostics of buffer b whose message holds part (on line lnum,
-- when given).
local function with(b, part, lnum)
  local r = {}
  for _, g in ipairs(vim.diagnostic.get(b)) do
    if has(g.message, part) and (lnum == nil or g.lnum == lnum) then
      r[#r + 1] = g
    end
  end
  return r
end

-- What buffer b shows, short: line, severity, the message's start.
local function shown(b)
  local l = {}
  for _, g in ipairs(vim.diagnostic.get(b)) do
    l[#l + 1] = string.format('%d:%d sev %d %s', g.lnum, g.col, g.severity,
                              g.message:sub(1, 160))
  end
  return table.concat(l, '\n')
end

local ERROR, WARN = vim.diagnostic.severity.ERROR, vim.diagnostic.severity.WARN

local function run()
  local tfvars = module .. '/terraform.tfvars'
  vim.cmd('edit ' .. vim.fn.fnameescape(tfvars))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'terraform-vars'

  -- the 0-based line that starts with prefix (after line from, if given)
  local function line_of(prefix, from)
    local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
    for i = (from or -1) + 2, #lines do
      if lines[i]:sub(1, #prefix) == prefix then
        return i - 1
      end
    end
    error('no line starts with ' .. prefix)
  end
  local function set_line(l, text)
    vim.api.nvim_buf_set_lines(bufnr, l, l + 1, false, { text })
  end

  local client_id = t.start(tool, module)
  if not check('the client starts the server', client_id ~= nil) then return end
  vim.lsp.buf_attach_client(bufnr, client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  local function settings(t)
    client.notify('workspace/didChangeConfiguration',
                  { settings = { tfresolve = t } })
  end
  -- the module's own warnings: two "enabled" attributes its types drop;
  -- while they are shown, the module is being checked
  local function checked()
    return #with(bufnr, 'attribute named "enabled"') == 2
  end

  -- 1. opened: the example's placeholder regions fail a validation rule
  local sl = line_of('starter_locations')
  local rule = 'All starter locations must be valid Azure region names'
  wait_for(function() return #with(bufnr, rule, sl) > 0 end)
  local d = with(bufnr, rule, sl)[1] or {}
  check('open: a failing validation rule, an error at its line',
        d.severity == ERROR, shown(bufnr))
  check('open: the misspelt "enabled" attributes are warnings', checked(),
        shown(bufnr))
  set_line(sl, 'starter_locations = ["uksouth", "ukwest"]')
  check('typing valid regions clears the rule\'s error',
        wait_for(function() return #with(bufnr, rule) == 0 end) and checked(),
        shown(bufnr))

  -- 2. a type error
  local et = line_of('enable_telemetry')
  set_line(et, 'enable_telemetry = "yes please"')
  check('a string for a bool: an error at its line',
        wait_for(function()
          local g = with(bufnr, 'a bool is required', et)[1]
          return g and g.severity == ERROR
        end), shown(bufnr))
  set_line(et, 'enable_telemetry = true')
  check('fixed: the type error goes',
        wait_for(function() return #with(bufnr, 'a bool is required') == 0 end),
        shown(bufnr))

  -- 3. a misspelt nested attribute: a warning, an error with strict
  local ct = line_of('      name', line_of('    change_tracking'))
  local ct_text = vim.api.nvim_buf_get_lines(bufnr, ct, ct + 1, false)[1]
  set_line(ct, (ct_text:gsub('name', 'nmae', 1)))
  check('a misspelt nested attribute: a warning at its line',
        wait_for(function()
          local g = with(bufnr, 'attribute named "nmae"', ct)[1]
          return g and g.severity == WARN
        end), shown(bufnr))
  settings({ strict = true })
  check('with strict it is an error',
        wait_for(function()
          local g = with(bufnr, 'attribute named "nmae"', ct)[1]
          return g and g.severity == ERROR
        end), shown(bufnr))
  settings({ strict = false })
  set_line(ct, ct_text)
  check('fixed: the misspelt attribute goes',
        wait_for(function() return #with(bufnr, '"nmae"') == 0 end) and checked(),
        shown(bufnr))

  -- 4. another .tf of the module broken on disk (not open in the editor)
  local broken = module .. '/broken.tf'
  write(broken, 'variable "x" {\n  type = \n}\n')
  local bb = buf_of(broken)
  check('a broken other .tf: its syntax error is shown on that file',
        wait_for(function()
          return #with(bb, 'Invalid expression', 1) > 0
        end), shown(bb))
  check('... and the tfvars says checking is limited, naming broken.tf:2',
        wait_for(function()
          local g = with(bufnr, 'Checking is limited', 0)[1]
          return g and has(g.message, 'broken.tf:2') and
            has(g.message, 'syntax error')
        end), shown(bufnr))
  check('... and the values are still checked, as a preview (the module\'s '
        .. 'warnings stay)', checked(), shown(bufnr))
  set_line(et, 'enable_telemetry = "yes please"')
  check('... a type error typed now is shown at its line',
        wait_for(function()
          local g = with(bufnr, 'a bool is required', et)[1]
          return g and g.severity == ERROR
        end), shown(bufnr))
  set_line(et, 'enable_telemetry = true')
  check('... and goes when fixed',
        wait_for(function() return #with(bufnr, 'a bool is required') == 0 end),
        shown(bufnr))
  local last = vim.api.nvim_buf_line_count(bufnr)
  vim.api.nvim_buf_set_lines(bufnr, last, last, false, { 'oops = = 1' })
  check('... the tfvars\'s own syntax is still checked, once',
        wait_for(function()
          local n = 0
          for _, g in ipairs(vim.diagnostic.get(bufnr)) do
            if g.lnum == last and g.severity == ERROR then n = n + 1 end
          end
          return n == 1
        end), shown(bufnr))
  vim.api.nvim_buf_set_lines(bufnr, last, last + 1, false, {})
  os.remove(broken)
  check('broken.tf deleted: its diagnostics go, the module is checked again',
        wait_for(function()
          return #vim.diagnostic.get(bb) == 0 and
            #with(bufnr, 'Checking is limited') == 0 and checked()
        end), shown(bb) .. '\n--\n' .. shown(bufnr))

  -- 5. a varFiles entry that does not exist
  settings({ varFiles = { 'missing.tfvars' } })
  check('a missing varFiles entry: said at line 0 of the tfvars, with the '
        .. 'OS error; the module still checked',
        wait_for(function()
          local g = with(bufnr, 'missing.tfvars', 0)[1]
          return g and has(g.message, 'No such file') and checked()
        end), shown(bufnr))
  settings({ varFiles = {} })
  check('varFiles emptied: the message goes',
        wait_for(function()
          return #with(bufnr, 'missing.tfvars') == 0 and checked()
        end),
        shown(bufnr))

  -- 6. a new auto file written on disk while the tfvars is open
  -- (nothing asked of the server since it last published: no edit can
  -- make it read the disk)
  local auto = module .. '/zz.auto.tfvars'
  write(auto, 'enable_telemetry = "maybe"\n')
  local ab = buf_of(auto)
  check('a new *.auto.tfvars on disk is checked without an edit (its '
        .. 'error on that file)',
        wait_for(function()
          return #with(ab, 'a bool is required', 0) > 0
        end), shown(ab))

  -- 7. Emacs's lock file of that auto file: a dangling symbolic link
  assert(vim.loop.fs_symlink('user@host.1234:1700000000',
                             module .. '/.#zz.auto.tfvars'))
  last = vim.api.nvim_buf_line_count(bufnr)
  vim.api.nvim_buf_set_lines(bufnr, last, last, false, { 'not_declared = 1' })
  check('with the lock file .#zz.auto.tfvars an edit is checked',
        wait_for(function()
          return #with(bufnr, 'not_declared', last) > 0
        end), shown(bufnr))
  check('... the lock is no variables file: no read error, nothing lost',
        #with(bufnr, 'Failed to read') == 0 and checked() and
        #with(ab, 'a bool is required', 0) > 0,
        shown(bufnr) .. '\n--\n' .. shown(ab))

  t.stop(client_id)
end

t.main(run)
