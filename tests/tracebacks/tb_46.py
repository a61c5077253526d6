y = not_defined
