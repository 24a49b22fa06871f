-- Neovim's built-in client edits INBOX_LSP_FILE with `inbox-rpc lsp` and writes to OUT what the user
-- sees: the diagnostics, the lines of the hover's float (the hover handler's buffer), the outline
-- as the location list has it, the buffer after formatting, and a completion's edit applied.
local bin, file, out_path = os.getenv('INBOX_RPC_BIN'), os.getenv('INBOX_LSP_FILE'), os.getenv('OUT')
local out = {}
vim.cmd('edit ' .. file)
local buf = vim.api.nvim_get_current_buf()
vim.bo[buf].shiftwidth, vim.bo[buf].softtabstop, vim.bo[buf].expandtab = 2, 2, true
local id = vim.lsp.start_client({ cmd = { bin, 'lsp', '--stdio' }, name = 'inbox-rpc',
  root_dir = vim.fn.fnamemodify(file, ':h') })
vim.lsp.buf_attach_client(buf, id)
vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local client = vim.lsp.get_client_by_id(id)
local uri = vim.uri_from_bufnr(buf)

local diagnostics = vim.diagnostic.get(buf)
table.insert(out, 'diagnostics ' .. #diagnostics)
for _, d in ipairs(diagnostics) do
  local lsp = d.user_data and d.user_data.lsp or {}
  table.insert(out, string.format('diagnostic %d:%d %s %s', d.lnum + 1, d.col + 1, tostring(lsp.code or d.code),
    d.message))
end

-- The hover on the notification's "content" line, through Neovim's own handler (its float).
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local content_line, content_col
for i, l in ipairs(lines) do
  if l:find('"content"') then content_line, content_col = i - 1, l:find('"content"') - 1 end
end
local hover = client.request_sync('textDocument/hover',
  { textDocument = { uri = uri }, position = { line = content_line, character = content_col - 1 } }, 10000, buf)
local float_buf = vim.lsp.handlers['textDocument/hover'](nil, hover.result,
  { method = 'textDocument/hover', client_id = id, bufnr = buf }, {})
for _, l in ipairs(vim.api.nvim_buf_get_lines(float_buf, 0, -1, false)) do table.insert(out, 'hover ' .. l) end
-- And on a member's name: the schema's description above the card.
local key_hover = client.request_sync('textDocument/hover',
  { textDocument = { uri = uri }, position = { line = content_line, character = content_col + 2 } }, 10000, buf)
local key_lines = vim.lsp.util.convert_input_to_markdown_lines(key_hover.result.contents)
table.insert(out, 'field ' .. key_lines[1])

-- The outline, as `vim.lsp.buf.document_symbol()` lists it.
local symbols = client.request_sync('textDocument/documentSymbol', { textDocument = { uri = uri } }, 10000, buf)
for _, item in ipairs(vim.lsp.util.symbols_to_items(symbols.result, buf)) do
  table.insert(out, string.format('outline %d %s', item.lnum, item.text))
end

-- Formatting with the buffer's indentation (2 spaces), applied as `gq`'s LSP form applies it.
vim.lsp.buf.formatting_sync(nil, 10000)
for _, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do table.insert(out, 'formatted ' .. l) end

-- A member's name being typed in the custom data: the item's edit applied, and the word the
-- omnifunc's menu inserts.
lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local data_line
for i, l in ipairs(lines) do if l:find('"data": {') then data_line = i end end
vim.api.nvim_buf_set_lines(buf, data_line, data_line, false, { '          "disp' })
local typed = vim.api.nvim_buf_get_lines(buf, data_line, data_line + 1, false)[1]
local completion = client.request_sync('textDocument/completion',
  { textDocument = { uri = uri }, position = { line = data_line, character = #typed } }, 10000, buf)
local items = completion.result.items or completion.result
local chosen
for _, item in ipairs(items) do if item.label == 'displayType' then chosen = item end end
local words = vim.lsp.util.text_document_completion_list_to_complete_items(completion.result, 'disp')
for _, word in ipairs(words) do
  if word.abbr == 'displayType' then table.insert(out, 'word ' .. word.word) end
end
vim.lsp.util.apply_text_edits({ chosen.textEdit }, buf, client.offset_encoding)
table.insert(out, 'completed ' .. vim.api.nvim_buf_get_lines(buf, data_line, data_line + 1, false)[1])

vim.fn.writefile(out, out_path)
client.stop()
vim.cmd('qa!')
