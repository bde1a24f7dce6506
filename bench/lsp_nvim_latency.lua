-- How soon a real client shows an edit's diagnostics (issue 28): headless
-- Neovim's own LSP client on terraform.tfvars of the ALZ platform landing
-- zone module (run by bench/lsp_nvim_latency.sh through
-- tests/lsp_nvim.sh).  N times, one value is set alternately invalid and
-- valid with nvim_buf_set_lines; the time is taken from the edit to the
-- DiagnosticChanged event that shows the new state, with the client's
-- debounce of didChange at 0 (what the server and the client's plumbing
-- take) and at Neovim 0.7's default of 150 ms (what a user sees).  One
-- PASS line per measure (median and best, in ms) goes to the result file.
--
-- Environment: TFR_TOOL, TFR_MODULE, TFR_RESULT; BENCH_LSP_CHANGES
-- (default 20); the line edited, BENCH_LSP_KEY (default
-- enable_telemetry), set to BENCH_LSP_BAD and BENCH_LSP_GOOD in turn
-- (default "yes please" and true), the bad value's diagnostic holding
-- BENCH_LSP_WORDS (default "a bool is required"):
-- bench/lsp_nvim_tree_latency.sh edits caf-enterprise-scale's root_id,
-- which child modules' rules check.
local tool = os.getenv('TFR_TOOL')
local module = os.getenv('TFR_MODULE')
local key = os.getenv('BENCH_LSP_KEY') or 'enable_telemetry'
local bad_value = os.getenv('BENCH_LSP_BAD') or '"yes please"'
local good_value = os.getenv('BENCH_LSP_GOOD') or 'true'
local words = os.getenv('BENCH_LSP_WORDS') or 'a bool is required'
local t = dofile(debug.getinfo(1, 'S').source:sub(2):match('^(.*/)') ..
                 '../tests/lsp_nvim_common.lua')
local N = tonumber(os.getenv('BENCH_LSP_CHANGES') or '20')

local function median(l)
  table.sort(l)
  local n = #l
  return n % 2 == 1 and l[(n + 1) / 2] or (l[n / 2] + l[n / 2 + 1]) / 2
end

local function measure(debounce)
  vim.cmd('edit! ' .. vim.fn.fnameescape(module .. '/terraform.tfvars'))
  local bufnr = vim.api.nvim_get_current_buf()
  -- the server's own work: the trace setting's tfresolve/resolved
  -- notifications (each module resolved and its time) since the edit
  local work = 0
  local id = t.start(tool, module, {
    flags = { debounce_text_changes = debounce },
    init_options = { trace = true },
    handlers = {
      ['tfresolve/resolved'] = function(_, params)
        work = work + (params.ms or 0)
      end,
    },
  })
  vim.lsp.buf_attach_client(bufnr, id)
  local line
  for i, l in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if l:sub(1, #key + 1):match('^' .. key .. '[ =]') then line = i - 1 end
  end
  local function bad()
    for _, g in ipairs(vim.diagnostic.get(bufnr)) do
      if g.lnum == line and t.has(g.message, words) then
        return true
      end
    end
    return false
  end
  -- the first resolution (the module read cold) is not measured
  t.wait_for(function() return #vim.diagnostic.get(bufnr) > 0 end)
  local seen
  local au = vim.api.nvim_create_autocmd('DiagnosticChanged', {
    buffer = bufnr,
    callback = function() seen = vim.loop.hrtime() end,
  })
  local lat, works = {}, {}
  for i = 1, N do
    local want = i % 2 == 1
    vim.api.nvim_buf_set_lines(bufnr, line, line + 1, false,
      { key .. ' = ' .. (want and bad_value or good_value) })
    local t0 = vim.loop.hrtime()
    seen, work = nil, 0
    local ok = vim.wait(t.WAIT, function() return bad() == want end, 1)
    if not ok then
      t.check(('debounce %d ms: edit %d shown'):format(debounce, i), false)
      break
    end
    lat[#lat + 1] = ((seen or vim.loop.hrtime()) - t0) / 1e6
    works[#works + 1] = work
  end
  vim.api.nvim_del_autocmd(au)
  vim.lsp.stop_client(id)
  vim.wait(5000, function() return vim.lsp.get_client_by_id(id) == nil end, 10)
  vim.cmd('bwipeout!')
  if #lat > 0 then
    local best = math.huge
    for _, v in ipairs(lat) do best = math.min(best, v) end
    t.check(('latency with debounce %d ms: median %.1f ms, best %.1f ms ' ..
             '(%d edits); server work median %.1f ms'):format(
             debounce, median(lat), best, #lat, median(works)), true)
  end
end

t.main(function()
  measure(0)
  measure(150)
end)
