;;; flymake-diagnostics.el --- Eglot opens the payload file named by INBOX_LSP_FILE with `inbox-rpc lsp'
;; and prints what Flymake shows: one line per diagnostic, "LINE:COLUMN TYPE TEXT", sorted.
(require 'eglot)
(require 'flymake)
(setq eglot-sync-connect t eglot-connect-timeout 20 eglot-send-changes-idle-time 0.1)
(let* ((file (getenv "INBOX_LSP_FILE"))
       (default-directory (file-name-directory file))
       (buffer (find-file-noselect file)))
  (with-current-buffer buffer
    (js-mode)
    (let ((server (eglot--connect '(js-mode) (cons 'transient default-directory) 'eglot-lsp-server
                                  (list (getenv "INBOX_RPC_BIN") "lsp" "--stdio") "json")))
      (eglot--maybe-activate-editing-mode)
      (flymake-mode 1)
      (flymake-start)
      (let ((deadline (+ (float-time) 30)))
        (while (and (null (flymake-diagnostics)) (< (float-time) deadline))
          (accept-process-output nil 0.1)
          (flymake-start)))
      (dolist (line (sort (mapcar (lambda (d)
                                    (save-excursion
                                      (goto-char (flymake-diagnostic-beg d))
                                      (format "%d:%d %s %s" (line-number-at-pos) (1+ (current-column))
                                              (flymake-diagnostic-type d) (flymake-diagnostic-text d))))
                                  (flymake-diagnostics))
                          #'string<))
        (princ (concat line "\n")))
      (eglot-shutdown server))))
