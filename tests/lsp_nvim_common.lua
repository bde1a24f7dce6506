-- What the Neovim scripts of the suite (tests/lsp_nvim.lua,
-- tests/lsp_nvim_alz.lua) share: the result file and its PASS/FAIL lines,
-- the server's death, a bounded wait.  Loaded with dofile; returns a
-- table.  Environment: TFR_RESULT (the result file).
local M = {}

M.WAIT = 20000 -- ms for anything the server is asked or is to show (ASan)

M.out = assert(io.open(os.getenv('TFR_RESULT'), 'w'))

-- One PASS or FAIL line (and the detail of a failure); ok is returned.
function M.check(name, ok, detail)
  M.out:write((ok and 'PASS ' or 'FAIL ') .. name ..
              ((not ok and detail) and ('\n  ' .. detail:gsub('\n', '\n  ')) or '')
              .. '\n')
  M.out:flush()
  return ok
end

-- Set once the server has exited or failed to answer in time (why): what
-- follows fails at once instead of waiting again.
M.dead = nil

-- vim.wait for pred, but not after the server is gone.
function M.wait_for(pred)
  if M.dead then
    return false
  end
  return vim.wait(M.WAIT, function()
    return pred() or M.dead ~= nil
  end, 20) and not M.dead
end

function M.has(s, part)
  return type(s) == 'string' and s:find(part, 1, true) ~= nil
end

return M
