;;; strict-handshake.el --- Eglot, in its strict mode, connects to the server named by INBOX_RPC_BIN.
;; Strict mode refuses an InitializeResult with any member LSP does not define ("A `InitializeResult'
;; mustn't have ..."). Prints the serverInfo Eglot kept and a ping's answer; exits non-zero on error.
(require 'eglot)
(setq eglot-strict-mode '(disallow-non-standard-keys enforce-required-keys)
      eglot-sync-connect t
      eglot-connect-timeout 10)
(let* ((dir (file-name-as-directory (make-temp-file "eglot-inbox" t)))
       (default-directory dir)
       (server (eglot--connect '(fundamental-mode) (cons 'transient dir) 'eglot-lsp-server
                               (list (getenv "INBOX_RPC_BIN") "--store" ":memory:") "inbox")))
  (princ (format "serverInfo %S\n" (eglot--server-info server)))
  (princ (format "ping %S\n" (jsonrpc-request server :rpc.ping nil)))
  (eglot-shutdown server))
