undefined_total += 1
