a = <<
foo
