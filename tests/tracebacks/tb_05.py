y = undefined_name + 1
