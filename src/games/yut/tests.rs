//! Rule tests for Yut Nori, each expected board derived by hand from `spec/yut.md`.
