def run(fail):
    try:
        print("try")
        if fail:
            raise RuntimeError("fail")
    except RuntimeError as e:
        print("except", e)
    else:
        print("else")
    finally:
        print("finally")
    print("after")
run(False)
run(True)
