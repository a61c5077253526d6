import os
os.environ["CUDATUTOR_TEST_VAR"] = "hello"
print(os.environ["CUDATUTOR_TEST_VAR"])
print(os.environ.get("CUDATUTOR_TEST_VAR"))
print(os.environ.get("CUDATUTOR_SURELY_UNSET_42"))
print(os.environ.get("CUDATUTOR_SURELY_UNSET_42", "fallback"))
print("CUDATUTOR_TEST_VAR" in os.environ)
del os.environ["CUDATUTOR_TEST_VAR"]
print("CUDATUTOR_TEST_VAR" in os.environ)
print(os.getenv("CUDATUTOR_SURELY_UNSET_42", "dflt"))
