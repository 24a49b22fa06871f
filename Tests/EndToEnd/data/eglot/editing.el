;;; editing.el --- Eglot edits the payload file named by INBOX_LSP_FILE with `inbox-rpc lsp' and prints
;; what the user sees: the diagnostics Flymake shows, the ElDoc text of a hover, the outline Imenu
;; lists, the buffer after `eglot-format-buffer', and the line a completion made. With MARKDOWN=1
;; markdown-mode draws the hover (Eglot's choice where it is loaded); otherwise it is made absent,
;; as in an Emacs without it (Eglot then shows the Markdown as text).
(require 'eglot)
(require 'flymake)
(require 'imenu)
(if (equal (getenv "MARKDOWN") "1")
    (require 'markdown-mode)
  (fmakunbound 'gfm-view-mode))
(setq eglot-sync-connect t eglot-connect-timeout 20 eglot-send-changes-idle-time 0.1)
(defun out (&rest parts) (princ (concat (apply #'format parts) "\n")))
(defun wait-for (predicate)
  (let ((deadline (+ (float-time) 30)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.1))))
(let* ((file (getenv "INBOX_LSP_FILE"))
       (default-directory (file-name-directory file))
       (buffer (find-file-noselect file)))
  (switch-to-buffer buffer)
  (with-current-buffer buffer
    (js-mode)
    (setq-local tab-width 2 indent-tabs-mode nil)
    (let ((server (eglot--connect '(js-mode) (cons 'transient default-directory) 'eglot-lsp-server
                                  (list (getenv "INBOX_RPC_BIN") "lsp" "--stdio") "json")))
      (eglot--maybe-activate-editing-mode)
      (flymake-mode 1)
      (wait-for (lambda () (flymake-start) (flymake-diagnostics)))
      (out "diagnostics %d" (length (flymake-diagnostics)))
      (dolist (d (flymake-diagnostics))
        (out "diagnostic %s" (flymake-diagnostic-text d)))
      ;; The hover on the notification, as ElDoc receives it from Eglot.
      (goto-char (point-min))
      (search-forward "\"content\"")
      (goto-char (- (match-beginning 0) 1))
      (let (shown)
        (eglot-hover-eldoc-function (lambda (info &rest _) (setq shown (or info ""))))
        (wait-for (lambda () shown))
        (out "markdown-mode %s" (if (fboundp 'gfm-view-mode) "yes" "no"))
        ;; What the echo area or ElDoc's buffer draws: the text Eglot made, less what markdown-mode
        ;; made invisible (its markup).
        (let ((visible (apply #'concat (seq-filter (lambda (c) (not (get-text-property 0 'invisible c)))
                                                    (mapcar (lambda (i) (substring shown i (1+ i)))
                                                            (number-sequence 0 (1- (length shown))))))))
          (dolist (line (split-string (substring-no-properties visible) "\n"))
            (out "hover %s" line))))
      ;; The outline, as Imenu lists it.
      (let ((index (imenu--make-index-alist t)))
        (cl-labels ((walk (entries depth)
                      (dolist (entry entries)
                        (unless (equal entry imenu--rescan-item)
                          (out "outline %d %s" depth (car entry))
                          (when (imenu--subalist-p entry) (walk (cdr entry) (1+ depth)))))))
          (walk index 0)))
      ;; Formatting with the buffer's indentation (2 spaces).
      (eglot-format-buffer)
      (dolist (line (split-string (buffer-substring-no-properties (point-min) (point-max)) "\n"))
        (out "formatted %s" line))
      ;; A member's name being typed in the custom data, completed with `completion-at-point'.
      (goto-char (point-min))
      (search-forward "\"data\": {")
      (end-of-line)
      (insert "\n          \"disp")
      (eglot--signal-textDocument/didChange)
      (completion-at-point)
      (out "completed %s" (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
      (eglot-shutdown server))))
