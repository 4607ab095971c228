"""Short names of the main venues (domain.venues), as catalogues write their full names."""

import pytest

from papershelf.domain.venues import short_venue


@pytest.mark.parametrize("name,year,short", [
    ("Advances in Neural Information Processing Systems 30: Annual Conference on Neural "
     "Information Processing Systems 2017, December 4-9, 2017, Long Beach, CA, {USA}", 2017,
     "NeurIPS 2017"),
    ("NIPS", 2014, "NeurIPS 2014"),
    ("2016 IEEE Conference on Computer Vision and Pattern Recognition, CVPR 2016, Las Vegas, NV, "
     "USA, June 27-30, 2016", 2016, "CVPR 2016"),
    ("3rd International Conference on Learning Representations, {ICLR} 2015, San Diego, CA, "
     "USA, May 7-9, 2015, Conference Track Proceedings", 2015, "ICLR 2015"),
    ("Proceedings of the 2019 Conference of the North American Chapter of the Association for "
     "Computational Linguistics: Human Language Technologies, NAACL-HLT 2019", 2019,
     "NAACL 2019"),
    ("Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics",
     2020, "ACL 2020"),
    ("Findings of the Association for Computational Linguistics: ACL 2021", 2021,
     "Findings of ACL 2021"),
    ("Transactions of the Association for Computational Linguistics", 2020, "TACL"),
    ("Proceedings of the 38th International Conference on Machine Learning, {ICML} 2021", 2021,
     "ICML 2021"),
    ("IEEE International Conference on Computer Vision, {ICCV} 2017", 2017, "ICCV 2017"),
    ("Computer Vision - {ECCV} 2016 - 14th European Conference", 2016, "ECCV 2016"),
    ("Proceedings of the 2020 Conference on Empirical Methods in Natural Language Processing",
     2020, "EMNLP 2020"),
    ("J. Mach. Learn. Res.", 2020, "JMLR"),
    ("IEEE Trans. Pattern Anal. Mach. Intell.", 2017, "TPAMI"),
    ("Journal of Machine Learning Research", 2020, "JMLR"),
    ("IEEE Transactions on Pattern Analysis and Machine Intelligence", 2017, "TPAMI"),
    ("Nature", 2015, "Nature"),
    ("Science", 2020, "Science"),
    ("Proceedings of the AAAI Conference on Artificial Intelligence", 2021, "AAAI 2021"),
    ("Proceedings of the 20th ACM SIGKDD International Conference on Knowledge Discovery and "
     "Data Mining", 2014, "KDD 2014"),
    ("NeurIPS 2020 Workshop on Deep Learning and Inverse Problems", 2020, None),
    ("Some Regional Symposium", 2020, None),
    ("", 2020, None),
])
def test_short_venue_names(name, year, short):
    assert short_venue(name, year) == short
