a = provider::ns::fn
