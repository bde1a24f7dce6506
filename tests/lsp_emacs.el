;;; lsp_emacs.el --- tfresolve lsp in Emacs with eglot, in batch -*- lexical-binding: t -*-

;; The editor end of tests/lsp_emacs.sh: Emacs (28, with Debian's
;; elpa-eglot 1.9, or 29 and later with its own eglot) starts `tfresolve
;; lsp' with eglot on terraform.tfvars of a copy of fixtures/lsp-editor
;; and checks what the user gets: the diagnostic of its one error, hover
;; as plain text (eglot asks for plaintext without markdown-mode), an edit
;; of an auto file while Emacs holds its lock file (.#NAME.auto.tfvars, a
;; dangling symbolic link) still checked, the fix clearing the error, and
;; a clean shutdown.  One PASS or FAIL line per check goes to the result
;; file.
;;
;; Batch Emacs is never idle, so eglot's idle timers (the delayed
;; didChange) do not fire by themselves: the script sends the pending
;; changes with eglot's own function, as the timer would.
;;
;; Environment: TFR_TOOL (the tfresolve binary), TFR_MODULE (the module
;; copy), TFR_RESULT (the result file).

(require 'eglot)
(require 'flymake)
(require 'cl-lib)

(defvar tfr-tool (getenv "TFR_TOOL"))
(defvar tfr-module (file-name-as-directory (getenv "TFR_MODULE")))
(defvar tfr-result (getenv "TFR_RESULT"))
(defconst tfr-wait 20.0 "Seconds a check waits for the server.")

(defun tfr-line (text)
  (write-region (concat text "\n") nil tfr-result t 'silent))

(defun tfr-check (what ok &optional why)
  (tfr-line (format "%s %s" (if ok "PASS" "FAIL") what))
  (unless ok
    (tfr-line (format "    %s" (or why ""))))
  ok)

;; What the server published, by file: eglot's handler runs as usual; this
;; keeps a copy of each list as it arrives.
(defvar tfr-published (make-hash-table :test #'equal))
(cl-defmethod eglot-handle-notification :before
  (_server (_method (eql textDocument/publishDiagnostics)) &key uri diagnostics
           &allow-other-keys)
  (puthash (eglot--uri-to-path uri) diagnostics tfr-published))

(defun tfr-messages (file)
  "The messages of the diagnostics last published for FILE."
  (mapcar (lambda (d) (plist-get d :message))
          (gethash (expand-file-name file) tfr-published)))

(defun tfr-wait-for (pred)
  "Process the server's messages until PRED holds or `tfr-wait' passes."
  (let ((end (+ (float-time) tfr-wait)) ok)
    (while (and (not (setq ok (funcall pred))) (< (float-time) end))
      (accept-process-output nil 0.05))
    ok))

(defun tfr-any (file part)
  (cl-some (lambda (m) (string-search part m)) (tfr-messages file)))

(defun tfr-send-changes ()
  "What eglot's idle timer does: send the buffer's pending changes."
  (eglot--signal-textDocument/didChange))

(define-derived-mode tfr-tfvars-mode prog-mode "tfvars"
  "A mode for .tfvars files, enough for eglot.")

(defun tfr-run ()
  (let* ((tfvars (expand-file-name "terraform.tfvars" tfr-module))
         (auto (expand-file-name "extra.auto.tfvars" tfr-module))
         (eglot-autoreconnect nil)
         (create-lockfiles t)
         (buf (find-file-noselect tfvars))
         server)
    (with-temp-file auto (insert "instance_count = 2\n"))
    (with-current-buffer buf
      (tfr-tfvars-mode)
      (setq server (eglot (list 'tfr-tfvars-mode) (cons 'transient tfr-module)
                          'eglot-lsp-server (list tfr-tool "lsp")
                          "terraform-vars"))
      (tfr-check "eglot starts the server and connects"
                 (and server (jsonrpc-running-p server)))
      (tfr-check "the document's one error is published: the failed rule"
                 (tfr-wait-for (lambda ()
                                 (tfr-any tfvars "The region must look like")))
                 (format "%S" (tfr-messages tfvars)))
      ;; hover: eglot asked for plain text (no markdown-mode here)
      (goto-char (point-min))
      (search-forward "network")
      (backward-char 2)
      (let* ((h (jsonrpc-request server :textDocument/hover
                                 (eglot--TextDocumentPositionParams)))
             (c (plist-get h :contents))
             (kind (and (listp c) (plist-get c :kind)))
             (value (if (stringp c) c (plist-get c :value))))
        (tfr-check "hover: plain text, as eglot asked (contentFormat)"
                   (and (equal kind "plaintext") value
                        (not (string-search "**" value))
                        (not (string-search "```" value)))
                   (format "%S" h))
        (tfr-check "hover: the type, the description and the source"
                   (and value (string-search "cidr" value)
                        (string-search "The VPC" value)
                        (string-search "terraform.tfvars:3" value))
                   (format "%S" value))))
    ;; an auto file edited: Emacs locks it with .#extra.auto.tfvars
    (let ((abuf (find-file-noselect auto)))
      (with-current-buffer abuf
        (tfr-tfvars-mode)
        (eglot--maybe-activate-editing-mode)
        (goto-char (point-max))
        (insert "enable_debug = \"maybe\"\n")
        (tfr-check "Emacs made its lock file, a dangling symbolic link"
                   (file-symlink-p (expand-file-name ".#extra.auto.tfvars"
                                                     tfr-module)))
        (tfr-send-changes)
        (tfr-check "with the lock file, the edit of the auto file is checked"
                   (tfr-wait-for (lambda ()
                                   (tfr-any auto "enable_debug")))
                   (format "%S" (tfr-messages auto)))
        (tfr-check "... and the lock file is not read as a variables file"
                   (and (not (tfr-any auto "Failed to read"))
                        (not (tfr-any tfvars "Failed to read"))
                        (tfr-any tfvars "The region must look like"))
                   (format "%S / %S" (tfr-messages auto)
                           (tfr-messages tfvars)))
        (set-buffer-modified-p nil)
        (kill-buffer abuf)))
    ;; a new auto file written on disk: eglot watches the module's files
    ;; for the server (registered at initialized) and tells it
    (let ((new (expand-file-name "new.auto.tfvars" tfr-module)))
      (tfr-check "eglot registered the server's file watchers"
                 (tfr-wait-for
                  (lambda ()
                    (> (hash-table-count (eglot--file-watches server)) 0))))
      (with-temp-file new (insert "instance_count = \"many\"\n"))
      (tfr-check "a new *.auto.tfvars on disk is checked (its error on it)"
                 (tfr-wait-for (lambda ()
                                 (tfr-any new "a number is required")))
                 (format "%S" (tfr-messages new)))
      (delete-file new))
    ;; the fix: the error goes
    (with-current-buffer buf
      (goto-char (point-min))
      (when (re-search-forward "Europe/Paris" nil t)
        (replace-match "eu-west-3" t t))
      (tfr-send-changes)
      (tfr-check "fixing the value clears the error"
                 (tfr-wait-for (lambda ()
                                 (not (tfr-any tfvars "The region must"))))
                 (format "%S" (tfr-messages tfvars)))
      ;; shutdown and exit as eglot-shutdown sends them (Emacs 28's
      ;; jsonrpc then deletes the process at once: the server's own exit
      ;; is awaited here instead)
      (let ((proc (jsonrpc--process server)))
        (setf (eglot--shutdown-requested server) t)
        (tfr-check "shutdown is answered"
                   (null (jsonrpc-request server :shutdown nil :timeout 10)))
        (jsonrpc-notify server :exit nil)
        (tfr-wait-for (lambda () (not (process-live-p proc))))
        (tfr-check "the server exits with status 0 at exit"
                   (and (not (process-live-p proc))
                        (eq (process-exit-status proc) 0))
                   (format "%S %S" (process-status proc)
                           (process-exit-status proc))))
      (set-buffer-modified-p nil))))

(condition-case err
    (tfr-run)
  (error (tfr-check "the script runs to its end" nil (format "%S" err))))
(kill-emacs 0)
