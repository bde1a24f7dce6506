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

-- Starts `tool lsp` for root with Neovim's client (extra: more fields of
-- start_client's config); its exit is kept for M.stop (a server started
-- again is alive again).  The client's id, or nil.
function M.start(tool, root, extra)
  M.exited, M.exit_code, M.dead = false, nil, nil -- a new server
  local config = {
    name = 'tfresolve',
    cmd = { tool, 'lsp' },
    root_dir = root,
    on_exit = function(code)
      M.exited, M.exit_code = true, code
      M.dead = M.dead or ('the server exited with status ' .. tostring(code))
    end,
  }
  for k, v in pairs(extra or {}) do config[k] = v end
  return vim.lsp.start_client(config)
end

-- Stops the client; the server must exit with status 0.
function M.stop(client_id)
  vim.lsp.stop_client(client_id)
  M.check('the server exits with status 0 when the client stops it',
          vim.wait(M.WAIT, function() return M.exited end, 20) and
          M.exit_code == 0,
          'exited: ' .. tostring(M.exited) .. ', status ' ..
          tostring(M.exit_code))
end

-- Runs a script's checks, then closes the result file and quits.
function M.main(run)
  local ok, e = pcall(run)
  if not ok then
    M.check('the script runs to its end', false, tostring(e))
  end
  M.out:close()
  vim.cmd('qall!')
end

return M
