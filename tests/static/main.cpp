// The static tests are static_asserts in tests/static/*_static.cpp: compiling them is passing.
int main() { return 0; }
