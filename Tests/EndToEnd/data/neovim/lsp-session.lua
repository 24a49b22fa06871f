-- Neovim's built-in LSP client opens INBOX_LSP_FILE with `inbox-rpc lsp`, and writes to OUT what it
-- shows: the diagnostics, a hover, a completion, and the line a quick fix changed.
local bin, file, out_path = os.getenv('INBOX_RPC_BIN'), os.getenv('INBOX_LSP_FILE'), os.getenv('OUT')
local out = {}
vim.cmd('edit ' .. file)
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({ cmd = { bin, 'lsp', '--stdio' }, name = 'inbox-rpc',
  root_dir = vim.fn.fnamemodify(file, ':h') })
vim.lsp.buf_attach_client(buf, id)
vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local client = vim.lsp.get_client_by_id(id)
table.insert(out, 'encoding ' .. client.offset_encoding)
local diagnostics = vim.diagnostic.get(buf)
table.sort(diagnostics, function(a, b) return a.message < b.message end)
for _, d in ipairs(diagnostics) do
  local lsp = d.user_data and d.user_data.lsp or {}
  table.insert(out, string.format('diagnostic %d:%d-%d severity=%d %s', d.lnum + 1, d.col + 1, d.end_col + 1,
    d.severity, tostring(lsp.code or d.code)))
end
local uri = vim.uri_from_bufnr(buf)
local line = vim.api.nvim_buf_get_lines(buf, 1, 2, false)[1]
local hover = client.request_sync('textDocument/hover',
  { textDocument = { uri = uri }, position = { line = 0, character = 3 } }, 10000, buf)
table.insert(out, 'hover ' .. ((hover and hover.result and hover.result.contents.value:match('kind: `(%w+)`')) or 'none'))
local value_at = line:find('"captiond"') -- 1-based, the opening quote
local completion = client.request_sync('textDocument/completion',
  { textDocument = { uri = uri }, position = { line = 1, character = value_at } }, 10000, buf)
local labels = {}
for _, item in ipairs(completion.result.items or completion.result) do table.insert(labels, item.label) end
table.sort(labels)
table.insert(out, 'completion ' .. table.concat(labels, ','))
local unknown
for _, d in ipairs(diagnostics) do
  local lsp = d.user_data and d.user_data.lsp or {}
  if (lsp.code or d.code) == 'unknownDisplayType' then
    unknown = { code = 'unknownDisplayType', message = d.message, range = {
      start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } } }
  end
end
local actions = client.request_sync('textDocument/codeAction',
  { textDocument = { uri = uri }, range = unknown.range, context = { diagnostics = { unknown } } }, 10000, buf)
vim.lsp.util.apply_workspace_edit(actions.result[1].edit, client.offset_encoding)
table.insert(out, 'fixed ' .. vim.api.nvim_buf_get_lines(buf, 1, 2, false)[1])
vim.fn.writefile(out, out_path)
client.stop()
vim.cmd('qa!')
