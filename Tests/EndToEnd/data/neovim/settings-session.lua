-- Neovim's built-in client starts `inbox-rpc lsp` as docs/editors.md sets it up, its settings in
-- `init_options` (INIT_OPTIONS, JSON): the only way Neovim 0.7 gives them. Writes to OUT the
-- diagnostics it shows, "LINE CODE MESSAGE", sorted.
local bin, file, out_path = os.getenv('INBOX_RPC_BIN'), os.getenv('INBOX_LSP_FILE'), os.getenv('OUT')
vim.cmd('edit ' .. file)
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({ name = 'inbox-rpc', cmd = { bin, 'lsp', '--stdio' },
  root_dir = vim.fn.fnamemodify(file, ':p:h'), init_options = vim.fn.json_decode(os.getenv('INIT_OPTIONS')) })
vim.lsp.buf_attach_client(buf, id)
vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local out = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local lsp = d.user_data and d.user_data.lsp or {}
  table.insert(out, string.format('%d %s %s', d.lnum + 1, tostring(lsp.code or d.code), d.message))
end
table.sort(out)
vim.fn.writefile(out, out_path)
vim.lsp.get_client_by_id(id).stop()
vim.cmd('qa!')
