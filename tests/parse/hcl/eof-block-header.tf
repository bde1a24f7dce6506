# A block header cut short by the end of the file (no final newline).
not valid syntax