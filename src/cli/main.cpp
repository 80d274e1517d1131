#include <cstdio>
int main() { std::puts("plume: under construction"); return 0; }
