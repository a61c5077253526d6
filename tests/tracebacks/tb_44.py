while undefined_w:
    pass
